package dev.varroa.testfixtures.updatesite;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDateTime;
import java.util.Base64;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * A small but real Jenkins plugin file: a JAR whose manifest carries the attributes the Jenkins
 * plugin build writes (Short-Name, Long-Name, Plugin-Version, Jenkins-Version, Plugin-Dependencies).
 *
 * @param dependencies Plugin-Dependencies entries as the manifest spells them, e.g. {@code credentials:1415.v1}
 *     or {@code mailer:488;resolution:=optional}
 */
public record FixturePlugin(String id, String version, String title, String requiredCore, List<String> dependencies,
    byte[] bytes) {

  /** Every entry's time (DOS times step by two seconds: a clock read would make two builds differ). */
  public static final LocalDateTime ENTRY_TIME = LocalDateTime.of(2026, 1, 1, 0, 0);

  public FixturePlugin {
    dependencies = List.copyOf(dependencies);
    bytes = bytes.clone();
  }

  public static FixturePlugin of(String id, String version, String... dependencies) {
    return of(id, version, "Fixture " + id + " plugin", "2.479.3", List.of(dependencies));
  }

  public static FixturePlugin of(String id, String version, String title, String requiredCore, List<String> dependencies) {
    Manifest manifest = new Manifest();
    Attributes main = manifest.getMainAttributes();
    main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
    main.putValue("Short-Name", id);
    main.putValue("Long-Name", title);
    main.putValue("Plugin-Version", version);
    main.putValue("Jenkins-Version", requiredCore);
    main.putValue("Url", "https://plugins.example.com/" + id);
    if (!dependencies.isEmpty()) {
      main.putValue("Plugin-Dependencies", String.join(",", dependencies));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JarOutputStream jar = new JarOutputStream(out)) {
      jar.putNextEntry(entry(JarFile.MANIFEST_NAME));
      manifest.write(jar);
      jar.closeEntry();
      jar.putNextEntry(entry("WEB-INF/lib/" + id + ".jar"));
      jar.write((id + " " + version + " payload").getBytes(StandardCharsets.UTF_8));
      jar.closeEntry();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new FixturePlugin(id, version, title, requiredCore, dependencies, out.toByteArray());
  }

  /** A fixed time: the same plugin built twice has the same bytes, whichever second it was built in. */
  private static JarEntry entry(String name) {
    JarEntry entry = new JarEntry(name);
    entry.setTimeLocal(ENTRY_TIME);
    return entry;
  }

  @Override
  public byte[] bytes() {
    return bytes.clone();
  }

  public String sha256Base64() {
    return Base64.getEncoder().encodeToString(digest("SHA-256"));
  }

  public String sha1Base64() {
    return Base64.getEncoder().encodeToString(digest("SHA-1"));
  }

  /** {@code id:version}. */
  public String coordinates() {
    return id + ":" + version;
  }

  private byte[] digest(String algorithm) {
    try {
      return MessageDigest.getInstance(algorithm).digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
