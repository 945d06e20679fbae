package dev.varroa.operator.install;

import dev.varroa.protocol.bus.BusTrust;
import dev.varroa.testfixtures.helm.HelmChart;
import dev.varroa.testfixtures.helm.RenderedManifests;
import dev.varroa.testfixtures.nats.NatsServerProcess;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The core's NATS as a chart installation runs it, on loopback: the installation Secrets made on the core's API
 * server as the core's operator makes them at its start (the NATS certificate for 127.0.0.1, one Secret per member),
 * the rendered nats.conf (TLS, the core's users, the recorder's and the BFF's, and each member's two), with the
 * passwords the NATS pod's environment takes from those Secrets.
 */
public final class ChartCoreNats implements AutoCloseable {
  /** The core's cluster.name (the chart's default). */
  public static final String CORE = InstallationSettings.DEFAULT_CLUSTER_NAME;
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

  private final KubernetesClient core;
  private final String namespace;
  private final NatsServerProcess nats;
  private final String caPem;

  private ChartCoreNats(KubernetesClient core, String namespace, NatsServerProcess nats, String caPem) {
    this.core = core;
    this.namespace = namespace;
    this.nats = nats;
    this.caPem = caPem;
  }

  /**
   * @param namespace the core's release namespace, created when absent
   * @param members the core's nats.members; none renders no external endpoint
   * @param dir where the NATS pod's mounts go
   */
  public static ChartCoreNats start(KubernetesClient core, String namespace, List<String> members, Path dir)
      throws IOException, InterruptedException {
    if (core.namespaces().withName(namespace).get() == null) {
      core.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
          .create();
    }
    new InstallationSecrets(core, new InstallationSettings(namespace, InstallMode.FULL, CORE,
        List.of("varroa-nats." + namespace + ".svc"), List.of("127.0.0.1"), Optional.empty(), members),
        Clock.systemUTC()).ensure();
    RenderedManifests rendered;
    try (HelmChart chart = HelmChart.varroa()) {
      HelmChart.Render render = HelmChart.Render.in(namespace).set("networkPolicy.enabled", "false")
          .set("recordStore.enabled", "true").withApiVersion("postgresql.cnpg.io/v1/Cluster");
      if (!members.isEmpty()) {
        // the chart serves members only on its external endpoint
        render = render.set("nats.external.enabled", "true").set("nats.external.host", "nats.example.com")
            .set("nats.members", "{" + String.join(",", members) + "}");
      }
      rendered = chart.template(render);
    }
    // the config map the pod mounts, as helm installs it
    core.resource(rendered.get(ConfigMap.class, "varroa-nats")).createOr(existing -> existing.update());
    StatefulSet statefulSet = rendered.get(StatefulSet.class, InstallationSecrets.NATS_STATEFULSET);
    Map<String, String> environment = ChartContainer.of(statefulSet, "nats")
        .environment(core, namespace, InstallationSecrets.NATS_STATEFULSET + "-0", dir);
    Secret tls = core.secrets().inNamespace(namespace).withName(InstallationSecrets.NATS_TLS_SECRET).get();
    Path tlsDir = Files.createDirectories(dir.resolve("nats-tls"));
    for (String key : List.of(InstallationSecrets.KEY_TLS_CERT, InstallationSecrets.KEY_TLS_KEY,
        InstallationSecrets.KEY_CA_CERT)) {
      Files.writeString(tlsDir.resolve(key), InstallationSecrets.value(tls, key));
    }
    // the pod's mount of varroa-nats-tls
    String config = ChartNatsConfig.forLoopback(rendered, environment).replace("/etc/nats/tls/", tlsDir + "/");
    return new ChartCoreNats(core, namespace, NatsServerProcess.startWithConfig(config),
        InstallationSecrets.value(tls, InstallationSecrets.KEY_CA_CERT));
  }

  /** tls://127.0.0.1:port, an address the server certificate carries. */
  public String url() {
    return nats.value().url();
  }

  public int port() {
    return Integer.parseInt(url().substring(url().lastIndexOf(':') + 1));
  }

  /** Where JetStream keeps its files, to scan them. */
  public Path storeDirectory() {
    return nats.value().storeDirectory();
  }

  /** The NATS CA, as {@code ca.crt} of every varroa-nats-creds Secret holds it. */
  public String caPem() {
    return caPem;
  }

  /** A key of the core's varroa-nats-creds, e.g. recorder-password. */
  public String password(String key) {
    return InstallationSecrets.value(core.secrets().inNamespace(namespace)
        .withName(InstallationSecrets.NATS_CREDS_SECRET).get(), key);
  }

  /** Logs in as one of the core's chart users, over TLS, with the inbox its component uses. */
  public Connection connect(String user, String passwordKey) throws IOException, InterruptedException {
    return Nats.connect(Options.builder().server(url()).userInfo(user, password(passwordKey))
        .inboxPrefix(ChartNatsConfig.inboxPrefix(user))
        .sslContext(BusTrust.trusting(caPem, "varroa-nats-creds ca.crt")).connectionTimeout(CONNECT_TIMEOUT)
        .maxReconnects(-1).build());
  }

  /** The server's log so far, to find permission violations. */
  public String log() throws IOException {
    return nats.log();
  }

  @Override
  public void close() throws InterruptedException {
    nats.close();
  }
}
