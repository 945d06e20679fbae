package dev.varroa.updatecenter;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The update center's settings, from its environment (the operator sets them on the Deployment).
 *
 * @param baseUrl where controllers reach this service, without a trailing slash: plugin URLs in
 *     update-center.json start with it
 */
public record UpdateCenterSettings(int port, Path storage, Path wantedFile, Path signingFolder, String baseUrl,
    String siteId, Optional<URI> upstream, Optional<URI> upstreamPluginVersions, Duration syncInterval,
    Path importTokenFile) {
  public static final String ENV_PORT = "VARROA_UC_PORT";
  public static final String ENV_STORAGE_DIR = "VARROA_UC_STORAGE_DIR";
  public static final String ENV_WANTED_FILE = "VARROA_UC_WANTED_FILE";
  public static final String ENV_SIGNING_DIR = "VARROA_UC_SIGNING_DIR";
  public static final String ENV_BASE_URL = "VARROA_UC_BASE_URL";
  public static final String ENV_SITE_ID = "VARROA_UC_SITE_ID";
  public static final String ENV_UPSTREAM_URL = "VARROA_UC_UPSTREAM_URL";
  public static final String ENV_UPSTREAM_PLUGIN_VERSIONS_URL = "VARROA_UC_UPSTREAM_PLUGIN_VERSIONS_URL";
  public static final String ENV_SYNC_INTERVAL = "VARROA_UC_SYNC_INTERVAL";
  public static final String ENV_IMPORT_TOKEN_FILE = "VARROA_UC_IMPORT_TOKEN_FILE";

  public static final int DEFAULT_PORT = 8080;
  public static final Path DEFAULT_STORAGE_DIR = Path.of("/var/lib/varroa-update-center");
  public static final Path DEFAULT_WANTED_FILE = Path.of("/etc/varroa-update-center/wanted/" + WantedList.FILE_NAME);
  public static final Path DEFAULT_SIGNING_DIR = Path.of("/etc/varroa-update-center/signing");
  /** The Secret key (and file in the signing folder) holding the bearer token POST /import requires. */
  public static final String IMPORT_TOKEN_FILE = "import-token";
  /** How often the wanted list and the storage are read again, and missing plugins fetched. */
  public static final Duration DEFAULT_SYNC_INTERVAL = Duration.ofSeconds(30);

  /**
   * Reads the settings.
   *
   * @throws IllegalArgumentException naming the variable and the fix
   */
  public static UpdateCenterSettings fromEnv(Map<String, String> env) {
    int port = integer(env, ENV_PORT, DEFAULT_PORT);
    Path signing = Path.of(env.getOrDefault(ENV_SIGNING_DIR, DEFAULT_SIGNING_DIR.toString()));
    String baseUrl = strip(env.getOrDefault(ENV_BASE_URL, "http://localhost:" + port));
    if (!baseUrl.matches("^https?://.+")) {
      throw new IllegalArgumentException(ENV_BASE_URL + "=" + baseUrl + " is not an http(s) URL; set it to the URL"
          + " controllers reach this service at, e.g. http://varroa-uc-default.varroa-system.svc");
    }
    return new UpdateCenterSettings(port,
        Path.of(env.getOrDefault(ENV_STORAGE_DIR, DEFAULT_STORAGE_DIR.toString())),
        Path.of(env.getOrDefault(ENV_WANTED_FILE, DEFAULT_WANTED_FILE.toString())),
        signing, baseUrl, env.getOrDefault(ENV_SITE_ID, UpdateSiteDocuments.DEFAULT_SITE_ID),
        uri(env, ENV_UPSTREAM_URL), uri(env, ENV_UPSTREAM_PLUGIN_VERSIONS_URL),
        duration(env, ENV_SYNC_INTERVAL, DEFAULT_SYNC_INTERVAL),
        Path.of(env.getOrDefault(ENV_IMPORT_TOKEN_FILE, signing.resolve(IMPORT_TOKEN_FILE).toString())));
  }

  /** Settings for a server in a test or on a laptop: a storage folder, everything else default. */
  public static UpdateCenterSettings local(Path storage, Path wantedFile, Path signingFolder, int port) {
    return new UpdateCenterSettings(port, storage, wantedFile, signingFolder, "http://localhost:" + port,
        UpdateSiteDocuments.DEFAULT_SITE_ID, Optional.empty(), Optional.empty(), DEFAULT_SYNC_INTERVAL,
        signingFolder.resolve(IMPORT_TOKEN_FILE));
  }

  public UpdateCenterSettings withBaseUrl(String url) {
    return new UpdateCenterSettings(port, storage, wantedFile, signingFolder, strip(url), siteId, upstream,
        upstreamPluginVersions, syncInterval, importTokenFile);
  }

  public UpdateCenterSettings withUpstream(URI updateCenter) {
    return new UpdateCenterSettings(port, storage, wantedFile, signingFolder, baseUrl, siteId, Optional.of(updateCenter),
        upstreamPluginVersions, syncInterval, importTokenFile);
  }

  public UpdateCenterSettings withSyncInterval(Duration interval) {
    return new UpdateCenterSettings(port, storage, wantedFile, signingFolder, baseUrl, siteId, upstream,
        upstreamPluginVersions, interval, importTokenFile);
  }

  /** Parses 30s, 5m, 1h or a plain number of seconds. */
  static Duration duration(Map<String, String> env, String name, Duration fallback) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    String text = value.strip();
    try {
      if (text.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
      }
      char unit = text.charAt(text.length() - 1);
      String number = Character.isDigit(unit) ? text : text.substring(0, text.length() - 1);
      long amount = Long.parseLong(number);
      Duration parsed = switch (unit) {
        case 's' -> Duration.ofSeconds(amount);
        case 'm' -> Duration.ofMinutes(amount);
        case 'h' -> Duration.ofHours(amount);
        default -> {
          if (!Character.isDigit(unit)) {
            throw new NumberFormatException(text);
          }
          yield Duration.ofSeconds(amount);
        }
      };
      if (parsed.isNegative() || parsed.isZero()) {
        throw new NumberFormatException(text);
      }
      return parsed;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + "=" + value + " is not a duration; use e.g. 30s, 5m or 1h");
    }
  }

  private static int integer(Map<String, String> env, String name, int fallback) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + "=" + value + " is not a port number; use e.g. " + fallback);
    }
  }

  private static Optional<URI> uri(Map<String, String> env, String name) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    if (!value.strip().matches("^https?://.+")) {
      throw new IllegalArgumentException(name + "=" + value + " is not an http(s) URL of an update-center.json");
    }
    return Optional.of(URI.create(value.strip()));
  }

  private static String strip(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
