package dev.varroa.dashboard;

import dev.varroa.dashboard.api.LiveStreams;
import dev.varroa.dashboard.identity.IssuerEndpoints;
import dev.varroa.dashboard.identity.OidcSettings;
import dev.varroa.dashboard.reads.RecordReads;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.cluster.ClusterRole;
import dev.varroa.operator.render.InstallationDefaults;
import dev.varroa.operator.updatecenter.ManagedUpdateCenterSettings;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.testfixtures.oidc.OidcProvider;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.nats.client.Connection;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A real operator registering its cluster on a real API server and NATS, and the BFF in front of them, trusting a
 * real OpenID provider: what the dashboard tests read through.
 */
public final class BffStack implements AutoCloseable {

  public static final String CLUSTER = "eu-1";

  private final VarroaOperator operator;
  private final BffServer bff;

  private BffStack(VarroaOperator operator, BffServer bff) {
    this.operator = operator;
    this.bff = bff;
  }

  /** A free port for the BFF, chosen before the provider starts so its redirect URI can be registered there. */
  public static int freePort() throws IOException {
    // reserved against the other test JVMs of the machine, which run side by side
    return dev.varroa.testfixtures.process.LoopbackPort.pickFree();
  }

  public static String redirectUri(int port) {
    return "http://localhost:" + port + "/auth/callback";
  }

  /** The BFF's OIDC settings for the provider: the web client, users named by their subject. */
  public static OidcSettings oidc(OidcProvider provider, int port) throws IOException {
    Path secret = java.nio.file.Files.createTempFile("varroa-oidc-client", ".secret");
    secret.toFile().deleteOnExit();
    java.nio.file.Files.writeString(secret, OidcProvider.WEB_CLIENT_SECRET + "\n");
    return new OidcSettings(URI.create(provider.issuer()), OidcProvider.WEB_CLIENT_ID, Optional.of(secret),
        Set.of(OidcProvider.WEB_CLIENT_ID, OidcProvider.NATIVE_CLIENT_ID), "sub", "groups",
        List.of("openid", "profile", "email"), URI.create("http://localhost:" + port), OidcProvider.NATIVE_CLIENT_ID);
  }

  public static BffStack start(KubernetesClient client, Path cache, Connection operatorBus, Connection bffBus,
      OidcSettings oidc, int port, RecordReads records, BffServer.LiveStreamsFactory live, BffServer.McpMount mcp)
      throws Exception {
    ActivityPublisher activity = new ActivityPublisher(() -> operatorBus, CLUSTER, "operator", Clock.systemUTC());
    VarroaOperator operator = new VarroaOperator(client, cache, null, null, Set.of(),
        ManagedUpdateCenterSettings.fromEnv(Map.of()), Optional.empty(), InstallationDefaults.none(), activity);
    operator.start();
    operator.registerCluster(CLUSTER, ClusterRole.CORE, () -> operatorBus);
    BffServer bff = BffServer.start(port, new BffServer.Parts(() -> bffBus, () -> true, CLUSTER, oidc,
        IssuerEndpoints.discover(oidc.issuer()), records, live, mcp), Clock.systemUTC());
    return new BffStack(operator, bff);
  }

  public static BffStack start(KubernetesClient client, Path cache, Connection operatorBus, Connection bffBus,
      OidcSettings oidc, int port) throws Exception {
    return start(client, cache, operatorBus, bffBus, oidc, port, RecordReads.none(), LiveStreams::without,
        BffServer.McpMount.none());
  }

  public BffServer bff() {
    return bff;
  }

  public String url() {
    return bff.url();
  }

  @Override
  public void close() throws Exception {
    bff.close();
    operator.close();
  }
}
