package dev.varroa.updatecenter;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A connected update site plugins are fetched from (the Jenkins project's, a mirror, or another
 * Varroa update center). Its update-center.json lists the newest version of each plugin; a pinned
 * older version is looked up in its plugin-versions.json, by default the file next to it. Both are
 * read as a stream and only the wanted plugins kept: plugin-versions.json is tens of megabytes.
 */
public final class UpstreamSite {
  /** The Jenkins project's update site, the default of {@code varroactl updatecenter export}. */
  public static final URI JENKINS_UPDATE_CENTER = URI.create("https://updates.jenkins.io/current/update-center.actual.json");
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  /** A document or plugin download that stalls this long fails instead of holding the sync forever. */
  static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(5);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonFactory FACTORY = JSON.getFactory();

  private final URI updateCenter;
  private final URI pluginVersions;
  private final HttpClient http;

  /** Where each wanted plugin is offered, and why the others cannot be taken from this site. */
  public record Resolution(SortedMap<PluginCoordinates, UpstreamPlugin> located,
      SortedMap<PluginCoordinates, String> unavailable) {}

  /**
   * @param updateCenter the upstream update-center.json (a JSONP-wrapped one is fine)
   * @param pluginVersions its plugin-versions.json; empty: the file of that name next to update-center.json
   */
  public UpstreamSite(URI updateCenter, Optional<URI> pluginVersions) {
    this.updateCenter = updateCenter;
    this.pluginVersions = pluginVersions.orElse(updateCenter.resolve("plugin-versions.json"));
    this.http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).followRedirects(HttpClient.Redirect.NORMAL)
        .build();
  }

  public URI updateCenter() {
    return updateCenter;
  }

  public URI pluginVersions() {
    return pluginVersions;
  }

  /**
   * Finds each wanted plugin: first among update-center.json's newest versions, then in plugin-versions.json.
   *
   * @throws UpstreamUnavailableException when a document that is needed cannot be read
   */
  public Resolution locate(Collection<PluginCoordinates> wanted) throws UpstreamUnavailableException {
    SortedMap<PluginCoordinates, UpstreamPlugin> located = new TreeMap<>();
    SortedMap<PluginCoordinates, String> unavailable = new TreeMap<>();
    Set<String> ids = wanted.stream().map(PluginCoordinates::id).collect(Collectors.toSet());
    Map<String, JsonNode> newest = read(updateCenter, ids);
    SortedSet<PluginCoordinates> remaining = new TreeSet<>();
    for (PluginCoordinates plugin : wanted) {
      Offer offer = offered(plugin, newest.get(plugin.id()), updateCenter);
      if (offer.plugin().isPresent()) {
        located.put(plugin, offer.plugin().get());
      } else if (offer.refusal().isPresent()) {
        unavailable.put(plugin, offer.refusal().get());
      } else {
        remaining.add(plugin);
      }
    }
    if (!remaining.isEmpty()) {
      Map<String, JsonNode> versions = read(pluginVersions,
          remaining.stream().map(PluginCoordinates::id).collect(Collectors.toSet()));
      for (PluginCoordinates plugin : remaining) {
        JsonNode byVersion = versions.get(plugin.id());
        Offer offer = offered(plugin, byVersion == null ? null : byVersion.get(plugin.version()), pluginVersions);
        if (offer.plugin().isPresent()) {
          located.put(plugin, offer.plugin().get());
        } else {
          unavailable.put(plugin, offer.refusal().orElse("the upstream update site " + updateCenter + " does not list "
              + plugin.display() + " (neither its update-center.json nor " + pluginVersions + " has it)"));
        }
      }
    }
    return new Resolution(located, unavailable);
  }

  /** Opens a plugin download; the caller checks the bytes against {@link UpstreamPlugin#sha256()}. */
  public InputStream open(UpstreamPlugin plugin) throws UpstreamUnavailableException {
    return get(plugin.url());
  }

  /** An entry that offers the plugin, one that lists it but cannot be taken (with why), or neither. */
  private record Offer(Optional<UpstreamPlugin> plugin, Optional<String> refusal) {}

  private static Offer offered(PluginCoordinates plugin, JsonNode entry, URI document) {
    if (entry == null || !plugin.version().equals(entry.path("version").asText(null))) {
      return new Offer(Optional.empty(), Optional.empty());
    }
    String url = entry.path("url").asText(null);
    String sha256 = entry.path("sha256").asText(null);
    if (url == null || sha256 == null || sha256.isBlank()) {
      // a download that cannot be checked is never taken: the plugin stays missing with this reason
      return new Offer(Optional.empty(), Optional.of(document + " lists " + plugin.display() + " without "
          + (url == null ? "a url" : "a sha256") + ", and an unverifiable download is refused"));
    }
    try {
      return new Offer(Optional.of(new UpstreamPlugin(plugin, document.resolve(url),
          Base64.getDecoder().decode(sha256.strip()))), Optional.empty());
    } catch (IllegalArgumentException e) {
      return new Offer(Optional.empty(), Optional.of(document + " lists " + plugin.display()
          + " with a sha256 that is not base64 (" + sha256 + "), and an unverifiable download is refused"));
    }
  }

  /**
   * The {@code plugins} members of the document whose key is a wanted id, skipping the rest unparsed.
   */
  private Map<String, JsonNode> read(URI document, Set<String> ids)
      throws UpstreamUnavailableException {
    Map<String, JsonNode> found = new HashMap<>();
    try (InputStream body = get(document); JsonParser parser = FACTORY.createParser(skipToObject(body, document))) {
      parser.setCodec(JSON);
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new UpstreamUnavailableException(document + " is not an update site document (no JSON object)");
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        if (!field.equals("plugins") || value != JsonToken.START_OBJECT) {
          parser.skipChildren();
          continue;
        }
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String id = parser.currentName();
          parser.nextToken();
          if (ids.contains(id)) {
            found.put(id, parser.readValueAsTree());
          } else {
            parser.skipChildren();
          }
        }
      }
      return found;
    } catch (UpstreamUnavailableException e) {
      throw e;
    } catch (IOException e) {
      throw new UpstreamUnavailableException(document + " is not a readable update site document: " + e.getMessage(), e);
    }
  }

  /** Skips a JSONP prefix such as {@code updateCenter.post(}: the document starts at its first '{'. */
  private static InputStream skipToObject(InputStream body, URI document) throws IOException {
    PushbackInputStream in = new PushbackInputStream(body, 1);
    for (int c; (c = in.read()) >= 0; ) {
      if (c == '{') {
        in.unread(c);
        return in;
      }
    }
    throw new UpstreamUnavailableException(document + " is empty or holds no JSON object");
  }

  private InputStream get(URI uri) throws UpstreamUnavailableException {
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT).GET()
        .header("User-Agent", "varroa-update-center").build();
    try {
      HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
      if (response.statusCode() != 200) {
        response.body().close();
        throw new UpstreamUnavailableException(uri + " answered HTTP " + response.statusCode());
      }
      return response.body();
    } catch (IOException e) {
      if (e instanceof UpstreamUnavailableException u) {
        throw u;
      }
      throw new UpstreamUnavailableException(uri + " is unreachable: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UpstreamUnavailableException("interrupted while reading " + uri, e);
    }
  }
}
