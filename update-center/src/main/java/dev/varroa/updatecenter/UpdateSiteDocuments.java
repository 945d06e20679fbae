package dev.varroa.updatecenter;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds the update site's documents from what the store holds, in the format of the Jenkins
 * project's update site (update-center2): {@code update-center.json} lists one entry per plugin id
 * (the newest held version), {@code plugin-versions.json} every held version. Every entry is described
 * from the plugin's own manifest and file digests. Pure: no clock, no I/O.
 */
public final class UpdateSiteDocuments {
  /** The update site format version Jenkins accepts. */
  public static final String UPDATE_CENTER_VERSION = "1";
  /** The id of Jenkins' predefined update site: controllers compare it with the document's id. */
  public static final String DEFAULT_SITE_ID = "default";
  private static final ObjectMapper JSON = new ObjectMapper();

  private UpdateSiteDocuments() {}

  /**
   * The unsigned update-center.json.
   *
   * @param baseUrl where controllers reach this service, without a trailing slash
   */
  public static ObjectNode updateCenter(String siteId, String baseUrl, Collection<HeldPlugin> held) {
    Map<String, HeldPlugin> newest = new TreeMap<>();
    for (HeldPlugin plugin : held) {
      newest.merge(plugin.coordinates().id(), plugin, (a, b) ->
          PluginVersionOrder.INSTANCE.compare(a.coordinates().version(), b.coordinates().version()) >= 0 ? a : b);
    }
    ObjectNode document = JSON.createObjectNode();
    document.put("connectionCheckUrl", baseUrl + "/");
    document.put("id", siteId);
    document.put("updateCenterVersion", UPDATE_CENTER_VERSION);
    document.putArray("warnings");
    document.putObject("deprecations");
    ObjectNode plugins = document.putObject("plugins");
    newest.forEach((id, plugin) -> plugins.set(id, entry(baseUrl, plugin)));
    return document;
  }

  /** plugin-versions.json: every held version, which jenkins-plugin-cli reads for a pinned version's checksum. */
  public static ObjectNode pluginVersions(String baseUrl, Collection<HeldPlugin> held) {
    Map<String, Map<String, HeldPlugin>> byId = new TreeMap<>();
    for (HeldPlugin plugin : held) {
      byId.computeIfAbsent(plugin.coordinates().id(), id -> new TreeMap<>(PluginVersionOrder.INSTANCE))
          .put(plugin.coordinates().version(), plugin);
    }
    ObjectNode document = JSON.createObjectNode();
    document.put("updateCenterVersion", UPDATE_CENTER_VERSION);
    ObjectNode plugins = document.putObject("plugins");
    byId.forEach((id, versions) -> {
      ObjectNode entries = plugins.putObject(id);
      versions.forEach((version, plugin) -> entries.set(version, entry(baseUrl, plugin)));
    });
    return document;
  }

  /** Where a held plugin is downloaded from: {@code <base>/download/plugins/<id>/<version>/<id>.hpi}. */
  public static String downloadUrl(String baseUrl, PluginCoordinates plugin) {
    return baseUrl + "/download/plugins/" + plugin.relativePath();
  }

  static ObjectNode entry(String baseUrl, HeldPlugin plugin) {
    HpiManifest manifest = plugin.manifest();
    ObjectNode entry = JSON.createObjectNode();
    entry.put("name", plugin.coordinates().id());
    entry.put("version", plugin.coordinates().version());
    entry.put("title", manifest.title().filter(UpdateSiteDocuments::keepsItsType).orElse(plugin.coordinates().id()));
    entry.put("url", downloadUrl(baseUrl, plugin.coordinates()));
    entry.put("sha1", plugin.digests().sha1Base64());
    entry.put("sha256", plugin.digests().sha256Base64());
    entry.put("size", plugin.digests().size());
    manifest.requiredCore().filter(UpdateSiteDocuments::keepsItsType).ifPresent(v -> entry.put("requiredCore", v));
    manifest.minimumJavaVersion().filter(UpdateSiteDocuments::keepsItsType)
        .ifPresent(v -> entry.put("minimumJavaVersion", v));
    manifest.url().filter(UpdateSiteDocuments::keepsItsType).ifPresent(v -> entry.put("wiki", v));
    entry.putArray("labels");
    ArrayNode dependencies = entry.putArray("dependencies");
    for (HpiManifest.Dependency dependency : manifest.dependencies()) {
      dependencies.addObject().put("name", dependency.name()).put("version", dependency.version())
          .put("optional", dependency.optional());
    }
    return entry;
  }

  /**
   * json-lib, which controllers parse the document with, turns a string that looks like JSON
   * ({@code null}, {@code [..]}, {@code {..}}) into that JSON, and the signature would no longer match:
   * such text is left out.
   */
  static boolean keepsItsType(String text) {
    String trimmed = text.strip();
    return !(trimmed.equals("null") || (trimmed.startsWith("[") && trimmed.endsWith("]"))
        || (trimmed.startsWith("{") && trimmed.endsWith("}")));
  }
}
