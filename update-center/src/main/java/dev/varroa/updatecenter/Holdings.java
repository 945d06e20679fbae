package dev.varroa.updatecenter;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SortedMap;
import java.util.SortedSet;

/**
 * What the update center serves right now, built once per sync and swapped in whole: the held
 * plugins, what the wanted list asks for that is missing (and why), and the documents' bytes.
 *
 * @param missing wanted but not held, each with the reason
 * @param problems files or wanted-list lines that could not be used
 */
public record Holdings(SortedMap<PluginCoordinates, HeldPlugin> held, SortedSet<PluginCoordinates> wanted,
    SortedMap<PluginCoordinates, String> missing, List<String> problems, byte[] updateCenterJsonp,
    byte[] updateCenterJson, byte[] pluginVersionsJson, byte[] statusJson) {
  /** The JSONP wrapper Jenkins' update-center.json carries; Jenkins and jenkins-plugin-cli strip it. */
  public static final String JSONP_PREFIX = "updateCenter.post(\n";
  public static final String JSONP_SUFFIX = "\n);";
  private static final ObjectMapper JSON = new ObjectMapper();

  public Holdings {
    problems = List.copyOf(problems);
  }

  /** Builds the documents; the update-center.json is signed with the identity. */
  public static Holdings of(SortedMap<PluginCoordinates, HeldPlugin> held, SortedSet<PluginCoordinates> wanted,
      SortedMap<PluginCoordinates, String> missing, List<String> problems, String siteId, String baseUrl,
      SigningIdentity signing) {
    ObjectNode signed = UpdateSiteSigner.sign(UpdateSiteDocuments.updateCenter(siteId, baseUrl, held.values()), signing);
    String json = signed.toString();
    return new Holdings(held, wanted, missing, problems,
        (JSONP_PREFIX + json + JSONP_SUFFIX).getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8),
        UpdateSiteDocuments.pluginVersions(baseUrl, held.values()).toString().getBytes(StandardCharsets.UTF_8),
        status(held, wanted, missing, problems));
  }

  /**
   * GET /status.json, which the operator reads: {@code held} (id, version, sha256 base64), {@code wanted}
   * (id:version), {@code missing} (id, version, reason) and {@code problems}.
   */
  static byte[] status(SortedMap<PluginCoordinates, HeldPlugin> held, SortedSet<PluginCoordinates> wanted,
      SortedMap<PluginCoordinates, String> missing, List<String> problems) {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode heldArray = root.putArray("held");
    held.values().forEach(p -> heldArray.addObject().put("id", p.coordinates().id())
        .put("version", p.coordinates().version()).put("sha256", p.digests().sha256Base64()));
    ArrayNode wantedArray = root.putArray("wanted");
    wanted.forEach(p -> wantedArray.add(p.toString()));
    ArrayNode missingArray = root.putArray("missing");
    missing.forEach((p, reason) -> missingArray.addObject().put("id", p.id()).put("version", p.version())
        .put("reason", reason));
    ArrayNode problemArray = root.putArray("problems");
    problems.forEach(problemArray::add);
    return root.toString().getBytes(StandardCharsets.UTF_8);
  }
}
