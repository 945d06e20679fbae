package dev.varroa.updatecenter;

import java.util.Comparator;
import java.util.regex.Pattern;

/**
 * One plugin at one version, as a lock or a wanted list names it. Ids and versions follow the
 * JenkinsVersionProfile schema's patterns, which also keeps them safe as path segments.
 */
public record PluginCoordinates(String id, String version) implements Comparable<PluginCoordinates> {
  /** The schema pattern of JenkinsVersionProfile spec.plugins[].id. */
  public static final Pattern ID = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9._-]*$");
  /** The schema pattern of JenkinsVersionProfile spec.plugins[].version. */
  public static final Pattern VERSION = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9._+-]*$");
  private static final Comparator<PluginCoordinates> ORDER =
      Comparator.comparing(PluginCoordinates::id).thenComparing(PluginCoordinates::version);

  public PluginCoordinates {
    if (id == null || !ID.matcher(id).matches() || id.contains("..")) {
      throw new IllegalArgumentException("plugin id '" + id + "' is not a plugin id (letters, digits, '.', '_', '-')");
    }
    if (version == null || !VERSION.matcher(version).matches() || version.contains("..")) {
      throw new IllegalArgumentException("version '" + version + "' of plugin " + id
          + " is not a plugin version (letters, digits, '.', '_', '+', '-')");
    }
  }

  /**
   * Reads {@code id:version}, the plugins.txt form.
   *
   * @throws IllegalArgumentException naming the text and the expected form
   */
  public static PluginCoordinates parse(String text) {
    String trimmed = text == null ? "" : text.strip();
    int colon = trimmed.indexOf(':');
    if (colon <= 0 || colon == trimmed.length() - 1) {
      throw new IllegalArgumentException("'" + trimmed + "' is not id:version, e.g. git:5.8.0");
    }
    return new PluginCoordinates(trimmed.substring(0, colon), trimmed.substring(colon + 1));
  }

  /** Where the file lives below a download root and in an archive: {@code <id>/<version>/<id>.hpi}. */
  public String relativePath() {
    return id + "/" + version + "/" + fileName();
  }

  public String fileName() {
    return id + ".hpi";
  }

  @Override
  public int compareTo(PluginCoordinates other) {
    return ORDER.compare(this, other);
  }

  /** {@code id:version}. */
  @Override
  public String toString() {
    return id + ":" + version;
  }

  /** {@code id version}, how messages name a plugin. */
  public String display() {
    return id + " " + version;
  }
}
