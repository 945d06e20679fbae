package dev.varroa.operator.install;

import dev.varroa.operator.hooks.WebhookSettings;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the chart tells the operator about its installation (see docs/install.md). Absent when
 * VARROA_INSTALL_MODE is unset: a local run brings its own CA and keys as files.
 *
 * @param namespace the release namespace, where the installation Secrets live
 * @param natsServerDnsNames names the NATS server certificate must carry (full mode)
 * @param natsServerIps addresses the NATS server certificate must carry (full mode; nats.external.ipSANs)
 * @param webhookSecret the Secret holding the webhook token; created with a random token when absent
 * @param natsMembers the member clusters with their own NATS users (full mode; nats.members): each gets a Secret
 *     {@code varroa-nats-creds-<member>} with their passwords and the NATS CA
 */
public record InstallationSettings(String namespace, InstallMode mode, String clusterName,
    List<String> natsServerDnsNames, List<String> natsServerIps, Optional<String> webhookSecret,
    List<String> natsMembers) {

  public static final String ENV_MODE = "VARROA_INSTALL_MODE";
  public static final String ENV_CLUSTER_NAME = "VARROA_CLUSTER_NAME";
  public static final String ENV_NATS_SERVER_DNS_NAMES = "VARROA_NATS_SERVER_DNS_NAMES";
  public static final String ENV_NATS_SERVER_IPS = "VARROA_NATS_SERVER_IPS";
  public static final String ENV_NATS_MEMBERS = "VARROA_NATS_MEMBERS";
  /** The name the chart gives the cluster when cluster.name is not set. */
  public static final String DEFAULT_CLUSTER_NAME = "core";

  public InstallationSettings {
    natsServerDnsNames = List.copyOf(natsServerDnsNames);
    natsServerIps = List.copyOf(natsServerIps);
    natsMembers = List.copyOf(natsMembers);
  }

  /** An installation without member clusters of its own NATS users. */
  public InstallationSettings(String namespace, InstallMode mode, String clusterName, List<String> natsServerDnsNames,
      List<String> natsServerIps, Optional<String> webhookSecret) {
    this(namespace, mode, clusterName, natsServerDnsNames, natsServerIps, webhookSecret, List.of());
  }

  public static Optional<InstallationSettings> fromEnv(Map<String, String> env, String namespace) {
    String mode = env.get(ENV_MODE);
    if (mode == null || mode.isBlank()) {
      return Optional.empty();
    }
    InstallMode parsed = InstallMode.parse(mode);
    List<String> names = list(env.get(ENV_NATS_SERVER_DNS_NAMES));
    if (parsed == InstallMode.FULL && names.isEmpty()) {
      names = List.of("varroa-nats", "varroa-nats." + namespace, "varroa-nats." + namespace + ".svc",
          "varroa-nats." + namespace + ".svc.cluster.local");
    }
    String secret = env.get(WebhookSettings.ENV_SECRET);
    return Optional.of(new InstallationSettings(namespace, parsed,
        env.getOrDefault(ENV_CLUSTER_NAME, DEFAULT_CLUSTER_NAME), names, list(env.get(ENV_NATS_SERVER_IPS)),
        secret == null || secret.isBlank() ? Optional.empty() : Optional.of(secret.strip()),
        list(env.get(ENV_NATS_MEMBERS))));
  }

  private static List<String> list(String value) {
    return value == null ? List.of()
        : Arrays.stream(value.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
  }
}
