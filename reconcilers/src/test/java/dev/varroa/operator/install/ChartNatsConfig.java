package dev.varroa.operator.install;

import dev.varroa.testfixtures.helm.RenderedManifests;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The chart's rendered nats.conf, made runnable by a nats-server on loopback (NatsServerProcess.startWithConfig):
 * the variables the pod takes from its environment are defined at the top of the file, where nats-server resolves
 * them the same way, and the pod-only lines the fixture's command line sets instead (listen, monitoring port,
 * store) are dropped. Permissions, users and TLS stay as rendered.
 */
public final class ChartNatsConfig {
  private ChartNatsConfig() {
  }

  /**
   * @param environment the variables the file uses (SERVER_NAME, OPERATOR_PASSWORD, GATEWAY_PASSWORD), as the pod's env
   *     gives them; nats-server refuses one the file does not use
   */
  public static String forLoopback(Map<String, String> environment) {
    return forLoopback(ChartRbac.render(), environment);
  }

  /** The same from a render of the caller's own values (e.g. recordStore.enabled, which adds the recorder user). */
  public static String forLoopback(RenderedManifests manifests, Map<String, String> environment) {
    String rendered = manifests.get(ConfigMap.class, "varroa-nats").getData().get("nats.conf");
    // The BFF's user is in every default render; a test about other users need not name its password.
    if (rendered.contains("$DASHBOARD_PASSWORD") && !environment.containsKey("DASHBOARD_PASSWORD")) {
      environment = new java.util.LinkedHashMap<>(environment);
      environment.put("DASHBOARD_PASSWORD", "dashboard-" + java.util.UUID.randomUUID());
    }
    String variables = environment.entrySet().stream()
        .map(e -> e.getKey() + ": \"" + e.getValue() + "\"\n").collect(Collectors.joining());
    return variables + rendered.replaceAll("(?m)^\\s*(listen|http|store_dir):.*$", "");
  }

  /**
   * The inbox prefix the component behind a chart user connects with: the operator's and the gateway's own in the
   * chart's default cluster (only their user may subscribe there), jnats' default for the others.
   */
  public static String inboxPrefix(String user) {
    return switch (user) {
      case "operator" -> dev.varroa.protocol.BusNames.operatorInboxPrefix("core");
      case "gateway" -> dev.varroa.protocol.BusNames.gatewayInboxPrefix("core");
      default -> "_INBOX.";
    };
  }

  /** The same without its tls block: a plain nats:// server, for tests about permissions alone. */
  public static String withoutTls(String config) {
    return config.replaceFirst("(?ms)^tls \\{.*?^\\}\\n", "");
  }
}
