package dev.varroa.plugin.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * What the plugin core reads from the Jenkins container's environment (the operator sets it).
 *
 * @param loopbackUrl the mite's loopback listener, {@code http://127.0.0.1:9095} unless overridden
 * @param tokenFile the loopback bearer token the mite writes before it opens the listener
 * @param claimConnectTimeout plugin-to-mite connect budget of a claim (seed 000: 1 s)
 * @param claimReadTimeout plugin-to-mite read budget of a claim (seed 000: 5 s)
 * @param spoolBytes the spool's cap on disk
 * @param claimGate whether a queued build needs a granted claim before it may start
 * @param logSpoolBytes the cap on disk of the console log copies under {@code $JENKINS_HOME/varroa/logs}
 */
public record PluginSettings(
    URI loopbackUrl, Path tokenFile, Duration claimConnectTimeout, Duration claimReadTimeout, long spoolBytes,
    boolean claimGate, long logSpoolBytes) {

  public static final String LOOPBACK_URL_VARIABLE = "VARROA_LOOPBACK_URL";
  public static final String TOKEN_FILE_VARIABLE = "VARROA_LOOPBACK_TOKEN_FILE";
  public static final String CLAIM_CONNECT_TIMEOUT_VARIABLE = "VARROA_CLAIM_CONNECT_TIMEOUT";
  public static final String CLAIM_READ_TIMEOUT_VARIABLE = "VARROA_CLAIM_READ_TIMEOUT";
  public static final String SPOOL_BYTES_VARIABLE = "VARROA_SPOOL_BYTES";
  public static final String CLAIM_GATE_VARIABLE = "VARROA_CLAIM_GATE";
  public static final String LOG_SPOOL_BYTES_VARIABLE = "VARROA_LOG_SPOOL_BYTES";

  public static final URI LOOPBACK_URL = URI.create("http://127.0.0.1:9095");
  public static final Path LOOPBACK_TOKEN_FILE = Path.of("/var/run/varroa/loopback-token");
  public static final Duration PLUGIN_TO_MITE_CONNECT = Duration.ofSeconds(1);
  public static final Duration PLUGIN_TO_MITE_READ = Duration.ofSeconds(5);
  public static final long SPOOL_BYTES = 64L << 20;
  /** Issue 12: the console log copies may use 1 GiB of the Jenkins home unless told otherwise. */
  public static final long LOG_SPOOL_BYTES = 1L << 30;

  public static PluginSettings fromEnvironment(Map<String, String> env) {
    return new PluginSettings(
        loopbackUrl(env.get(LOOPBACK_URL_VARIABLE)),
        tokenFile(env.get(TOKEN_FILE_VARIABLE)),
        SettingValues.duration(CLAIM_CONNECT_TIMEOUT_VARIABLE, env.get(CLAIM_CONNECT_TIMEOUT_VARIABLE), PLUGIN_TO_MITE_CONNECT),
        SettingValues.duration(CLAIM_READ_TIMEOUT_VARIABLE, env.get(CLAIM_READ_TIMEOUT_VARIABLE), PLUGIN_TO_MITE_READ),
        SettingValues.bytes(SPOOL_BYTES_VARIABLE, env.get(SPOOL_BYTES_VARIABLE), SPOOL_BYTES),
        SettingValues.flag(CLAIM_GATE_VARIABLE, env.get(CLAIM_GATE_VARIABLE), false),
        SettingValues.bytes(LOG_SPOOL_BYTES_VARIABLE, env.get(LOG_SPOOL_BYTES_VARIABLE), LOG_SPOOL_BYTES));
  }

  public static PluginSettings fromEnvironment() {
    return fromEnvironment(System.getenv());
  }

  /** The same settings against another listener (tests run the mite's part on a free port). */
  public PluginSettings withLoopbackUrl(URI url) {
    return new PluginSettings(url, tokenFile, claimConnectTimeout, claimReadTimeout, spoolBytes, claimGate,
        logSpoolBytes);
  }

  private static URI loopbackUrl(String value) {
    if (value == null || value.isBlank()) {
      return LOOPBACK_URL;
    }
    String text = value.strip();
    try {
      URI uri = new URI(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
      if (!"http".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 0) {
        throw new URISyntaxException(text, "not http://host:port");
      }
      return uri;
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(LOOPBACK_URL_VARIABLE + "='" + text + "' is not an http://host:port URL;"
          + " set it to the mite's loopback listener (e.g. " + LOOPBACK_URL + ") or unset it for that default");
    }
  }

  private static Path tokenFile(String value) {
    return value == null || value.isBlank() ? LOOPBACK_TOKEN_FILE : Path.of(value.strip());
  }
}
