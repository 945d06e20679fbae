package dev.varroa.updatecenter;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * What a plugin's {@code META-INF/MANIFEST.MF} says about it: the attributes the Jenkins plugin
 * build writes (Short-Name, Plugin-Version, Long-Name, Jenkins-Version, Plugin-Dependencies, Url,
 * Minimum-Java-Version). The update center describes each held plugin from these alone.
 */
public record HpiManifest(String shortName, String version, Optional<String> title, Optional<String> requiredCore,
    Optional<String> minimumJavaVersion, Optional<String> url, List<Dependency> dependencies) {

  public HpiManifest {
    dependencies = List.copyOf(dependencies);
  }

  /** One entry of Plugin-Dependencies: {@code id:version}, optional when followed by {@code ;resolution:=optional}. */
  public record Dependency(String name, String version, boolean optional) {}

  /**
   * Reads the manifest of a .hpi file.
   *
   * @throws IOException when the file is no ZIP or has no manifest with Short-Name and Plugin-Version
   */
  public static HpiManifest read(Path hpi) throws IOException {
    Manifest manifest;
    try (JarFile jar = new JarFile(hpi.toFile())) {
      manifest = jar.getManifest();
    }
    if (manifest == null) {
      throw new IOException(hpi + " has no META-INF/MANIFEST.MF, so it is not a Jenkins plugin");
    }
    Attributes main = manifest.getMainAttributes();
    String shortName = main.getValue("Short-Name");
    String version = main.getValue("Plugin-Version");
    if (shortName == null || version == null) {
      throw new IOException(hpi + ": its manifest lacks Short-Name or Plugin-Version, so it is not a Jenkins plugin");
    }
    // Hudson-Version is what plugins built before the rename carry instead of Jenkins-Version.
    Optional<String> core = value(main, "Jenkins-Version").or(() -> value(main, "Hudson-Version"));
    return new HpiManifest(shortName.strip(), version.strip(), value(main, "Long-Name"), core,
        value(main, "Minimum-Java-Version"), value(main, "Url"), dependencies(main.getValue("Plugin-Dependencies")));
  }

  static List<Dependency> dependencies(String attribute) {
    List<Dependency> dependencies = new ArrayList<>();
    if (attribute == null || attribute.isBlank()) {
      return dependencies;
    }
    for (String entry : attribute.split(",")) {
      String[] parts = entry.strip().split(";");
      String coordinates = parts[0].strip();
      int colon = coordinates.indexOf(':');
      if (colon <= 0) {
        continue;
      }
      boolean optional = false;
      for (int i = 1; i < parts.length; i++) {
        optional |= parts[i].replace(" ", "").equals("resolution:=optional");
      }
      dependencies.add(new Dependency(coordinates.substring(0, colon), coordinates.substring(colon + 1), optional));
    }
    return dependencies;
  }

  private static Optional<String> value(Attributes attributes, String name) {
    return Optional.ofNullable(attributes.getValue(name)).map(String::strip).filter(v -> !v.isEmpty());
  }
}
