package dev.varroa.dashboard;

import dev.varroa.dashboard.http.LoginRateLimit;
import dev.varroa.dashboard.identity.OidcSettings;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The BFF's configuration from its environment (docs/dashboard-api.md "Configuration").
 *
 * @param httpPort the one port of the API, login, MCP and probes (VARROA_HTTP_PORT, default 8080)
 * @param coreCluster the core cluster's name, the default cluster of one-controller routes (VARROA_CLUSTER_NAME)
 * @param natsUrl VARROA_NATS_URL
 * @param natsUser VARROA_NATS_USER; empty for none
 * @param natsPasswordFile VARROA_NATS_PASSWORD_FILE; empty for none
 * @param natsCaFile VARROA_NATS_CA_FILE; empty trusts the JVM's CAs
 * @param loginLimit VARROA_BFF_LOGIN_RATE_LIMIT and VARROA_BFF_TRUSTED_PROXIES
 */
public record BffSettings(int httpPort, String coreCluster, String natsUrl, Optional<String> natsUser,
    Optional<Path> natsPasswordFile, Optional<Path> natsCaFile, OidcSettings oidc,
    LoginRateLimit.Settings loginLimit) {

  public static final int DEFAULT_HTTP_PORT = 8080;
  public static final String DEFAULT_CLUSTER_NAME = "local";

  public static BffSettings fromEnv(Map<String, String> env) {
    int port = DEFAULT_HTTP_PORT;
    String portValue = env.get("VARROA_HTTP_PORT");
    if (portValue != null && !portValue.isBlank()) {
      try {
        port = Integer.parseInt(portValue.trim());
      } catch (NumberFormatException e) {
        port = -1;
      }
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("VARROA_HTTP_PORT must be a port number (0-65535), not '" + portValue + "'");
      }
    }
    String nats = env.get("VARROA_NATS_URL");
    if (nats == null || nats.isBlank()) {
      throw new IllegalArgumentException("VARROA_NATS_URL is not set: give the NATS server URL, e.g. "
          + "nats://varroa-nats:4222");
    }
    return new BffSettings(port, optional(env, "VARROA_CLUSTER_NAME").orElse(DEFAULT_CLUSTER_NAME), nats.trim(),
        optional(env, "VARROA_NATS_USER"), optional(env, "VARROA_NATS_PASSWORD_FILE").map(Path::of),
        optional(env, "VARROA_NATS_CA_FILE").map(Path::of), OidcSettings.fromEnv(env, port),
        LoginRateLimit.Settings.fromEnv(env));
  }

  private static Optional<String> optional(Map<String, String> env, String name) {
    return Optional.ofNullable(env.get(name)).map(String::trim).filter(v -> !v.isEmpty());
  }
}
