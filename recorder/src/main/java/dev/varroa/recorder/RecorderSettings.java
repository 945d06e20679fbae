package dev.varroa.recorder;

import java.nio.file.Path;
import java.util.Map;

/**
 * How a recorder runs. Production reads it from the environment ({@link #fromEnv()}); tests build it with
 * {@link #of} and the {@code with...} copies.
 *
 * @param dsn the PostgreSQL JDBC URL, e.g. {@code jdbc:postgresql://host:5432/varroa} (VARROA_RECORDER_DSN)
 * @param dbUser the database role (VARROA_RECORDER_DB_USER); null when the DSN names it
 * @param dbPassword the role's password as a value (VARROA_RECORDER_DB_PASSWORD); null to read dbPasswordFile
 * @param dbPasswordFile file holding the password (VARROA_RECORDER_DB_PASSWORD_FILE), read at every new connection
 * @param natsUrl one URL or several, comma-separated, never with credentials in it (VARROA_NATS_URL)
 * @param natsUser the NATS user (VARROA_NATS_USER); null for none
 * @param natsPasswordFile file holding the NATS password, read again at every (re)connect; null for none
 * @param natsCaFile CA certificate (PEM) a tls:// NATS server is trusted by; null trusts the JVM's default CAs
 * @param healthPort the port of /healthz and /readyz (VARROA_HEALTH_PORT); 0 picks a free one
 * @param clusterName this installation's cluster (VARROA_CLUSTER_NAME): recorded for groups that name none
 * @param dashboardUrl the core dashboard's public URL without a trailing '/' (VARROA_DASHBOARD_URL), for the link a
 *     cross-tenant call answers with; "" when unknown (the answer then has no link)
 */
public record RecorderSettings(
    String dsn,
    String dbUser,
    String dbPassword,
    Path dbPasswordFile,
    String natsUrl,
    String natsUser,
    Path natsPasswordFile,
    Path natsCaFile,
    int healthPort,
    String clusterName,
    String dashboardUrl) {

  /** The recorder's probes listen here unless VARROA_HEALTH_PORT says otherwise. */
  public static final int DEFAULT_HEALTH_PORT = 9097;
  /** As the gateway: an installation that names no cluster is "local". */
  public static final String DEFAULT_CLUSTER_NAME = "local";
  static final String DSN_PREFIX = "jdbc:postgresql://";

  public RecorderSettings {
    if (dsn == null || dsn.isBlank()) {
      throw new IllegalArgumentException("VARROA_RECORDER_DSN is not set: give the PostgreSQL JDBC URL, e.g. "
          + "jdbc:postgresql://db.example.internal:5432/varroa");
    }
    if (!dsn.startsWith(DSN_PREFIX) || dsn.length() == DSN_PREFIX.length()) {
      throw new IllegalArgumentException("VARROA_RECORDER_DSN must be a PostgreSQL JDBC URL such as "
          + "jdbc:postgresql://host:5432/varroa, got '" + withoutQuery(dsn) + "'");
    }
    if (dbPassword != null && dbPasswordFile != null) {
      throw new IllegalArgumentException("set VARROA_RECORDER_DB_PASSWORD_FILE or VARROA_RECORDER_DB_PASSWORD, not both "
          + "(the file, a mounted Secret, is preferred)");
    }
    if (natsUrl == null || natsUrl.isBlank()) {
      throw new IllegalArgumentException("VARROA_NATS_URL is not set: give the NATS server URL, e.g. nats://varroa-nats:4222");
    }
    if (healthPort < 0 || healthPort > 65535) {
      throw new IllegalArgumentException("VARROA_HEALTH_PORT must be a TCP port (0-65535, 0 picks a free one), got "
          + healthPort);
    }
    if (clusterName == null || clusterName.isBlank()) {
      throw new IllegalArgumentException("VARROA_CLUSTER_NAME is empty: unset it for '" + DEFAULT_CLUSTER_NAME
          + "' or give the installation's cluster.name");
    }
    dashboardUrl = dashboardUrl == null ? "" : dashboardUrl.strip().replaceAll("/+$", "");
    if (!dashboardUrl.isEmpty() && !dashboardUrl.startsWith("https://") && !dashboardUrl.startsWith("http://")) {
      throw new IllegalArgumentException("VARROA_DASHBOARD_URL must be the dashboard's public http(s) URL (the chart's"
          + " dashboard.publicUrl), e.g. https://varroa.example.com, got '" + dashboardUrl + "'");
    }
  }

  /** Defaults for everything but the database and NATS. */
  public static RecorderSettings of(String dsn, String dbUser, String dbPassword, String natsUrl) {
    return new RecorderSettings(dsn, dbUser, dbPassword, null, natsUrl, null, null, null, DEFAULT_HEALTH_PORT,
        DEFAULT_CLUSTER_NAME, "");
  }

  public RecorderSettings withHealthPort(int port) {
    return new RecorderSettings(dsn, dbUser, dbPassword, dbPasswordFile, natsUrl, natsUser, natsPasswordFile, natsCaFile,
        port, clusterName, dashboardUrl);
  }

  public RecorderSettings withNatsCredentials(String user, Path passwordFile, Path caFile) {
    return new RecorderSettings(dsn, dbUser, dbPassword, dbPasswordFile, natsUrl, user, passwordFile, caFile, healthPort,
        clusterName, dashboardUrl);
  }

  public RecorderSettings withDbPasswordFile(Path passwordFile) {
    return new RecorderSettings(dsn, dbUser, null, passwordFile, natsUrl, natsUser, natsPasswordFile, natsCaFile,
        healthPort, clusterName, dashboardUrl);
  }

  public RecorderSettings withDashboardUrl(String url) {
    return new RecorderSettings(dsn, dbUser, dbPassword, dbPasswordFile, natsUrl, natsUser, natsPasswordFile, natsCaFile,
        healthPort, clusterName, url);
  }

  /** Reads the process environment; see {@link #fromEnv(Map)} for the variables. */
  public static RecorderSettings fromEnv() {
    return fromEnv(System.getenv());
  }

  /**
   * VARROA_RECORDER_DSN (required), VARROA_RECORDER_DB_USER, VARROA_RECORDER_DB_PASSWORD_FILE or
   * VARROA_RECORDER_DB_PASSWORD, VARROA_NATS_URL (required), VARROA_NATS_USER, VARROA_NATS_PASSWORD_FILE,
   * VARROA_NATS_CA_FILE, VARROA_HEALTH_PORT (default 9097), VARROA_CLUSTER_NAME (default local),
   * VARROA_DASHBOARD_URL (optional).
   */
  public static RecorderSettings fromEnv(Map<String, String> env) {
    return new RecorderSettings(
        text(env, "VARROA_RECORDER_DSN"),
        text(env, "VARROA_RECORDER_DB_USER"),
        text(env, "VARROA_RECORDER_DB_PASSWORD"),
        path(env, "VARROA_RECORDER_DB_PASSWORD_FILE"),
        text(env, "VARROA_NATS_URL"),
        text(env, "VARROA_NATS_USER"),
        path(env, "VARROA_NATS_PASSWORD_FILE"),
        path(env, "VARROA_NATS_CA_FILE"),
        port(env, "VARROA_HEALTH_PORT", DEFAULT_HEALTH_PORT),
        env.containsKey("VARROA_CLUSTER_NAME") ? env.get("VARROA_CLUSTER_NAME").strip() : DEFAULT_CLUSTER_NAME,
        text(env, "VARROA_DASHBOARD_URL"));
  }

  private static String text(Map<String, String> env, String name) {
    String value = env.get(name);
    return value == null || value.isBlank() ? null : value.strip();
  }

  private static Path path(Map<String, String> env, String name) {
    String value = text(env, name);
    return value == null ? null : Path.of(value);
  }

  private static int port(Map<String, String> env, String name, int fallback) {
    String value = text(env, name);
    if (value == null) {
      return fallback;
    }
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a TCP port number (default " + fallback + "), got '" + value + "'");
    }
  }

  // A DSN may carry ?password=...; never echo what follows the path.
  static String withoutQuery(String dsn) {
    int query = dsn.indexOf('?');
    return query < 0 ? dsn : dsn.substring(0, query) + "?...";
  }

  @Override
  public String toString() {
    return "RecorderSettings[dsn=" + withoutQuery(dsn) + ", dbUser=" + dbUser + ", dbPassword="
        + (dbPassword == null ? null : "***") + ", dbPasswordFile=" + dbPasswordFile + ", natsUrl=" + natsUrl
        + ", natsUser=" + natsUser + ", natsPasswordFile=" + natsPasswordFile + ", natsCaFile=" + natsCaFile
        + ", healthPort=" + healthPort + ", clusterName=" + clusterName + "]";
  }
}
