package dev.varroa.dashboard;

import dev.varroa.operator.OperatorSettings;
import dev.varroa.dashboard.activity.BusFanout;
import dev.varroa.dashboard.api.LiveStreams;
import dev.varroa.dashboard.http.LoginRateLimit;
import dev.varroa.dashboard.identity.IssuerEndpoints;
import dev.varroa.dashboard.identity.OidcSettings;
import dev.varroa.dashboard.logs.ConsoleLogs;
import dev.varroa.dashboard.reads.RecordReads;
import dev.varroa.dashboard.reads.StoredRecordReads;
import dev.varroa.dashboard.records.Backfill;
import dev.varroa.dashboard.records.DashboardDatabase;
import dev.varroa.dashboard.records.RunRecords;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.cluster.ClusterRole;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.recorder.logs.BlobStoreSettings;
import dev.varroa.recorder.store.RecordStore;
import dev.varroa.testfixtures.oidc.OidcProvider;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.nats.client.Connection;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * A real operator registering its cluster on a real API server and NATS, and the BFF in front of them, trusting a
 * real OpenID provider: what the dashboard tests read through.
 */
public final class BffStack implements AutoCloseable {

  public static final String CLUSTER = "eu-1";

  private final VarroaOperator operator;
  private final BffServer bff;
  private final List<AutoCloseable> readers;

  private BffStack(VarroaOperator operator, BffServer bff, List<AutoCloseable> readers) {
    this.operator = operator;
    this.bff = bff;
    this.readers = readers;
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
    return start(client, cache, operatorBus, bffBus, oidc, port, records, live, mcp,
        LoginRateLimit.Settings.defaults());
  }

  /** @param loginLimit the login starts a client address may make a minute, and which peers may name the client */
  public static BffStack start(KubernetesClient client, Path cache, Connection operatorBus, Connection bffBus,
      OidcSettings oidc, int port, RecordReads records, BffServer.LiveStreamsFactory live, BffServer.McpMount mcp,
      LoginRateLimit.Settings loginLimit) throws Exception {
    ActivityPublisher activity = new ActivityPublisher(() -> operatorBus, CLUSTER, "operator", Clock.systemUTC());
    VarroaOperator operator = new VarroaOperator(client, OperatorSettings.defaults(cache), null, activity,
        Optional.empty(), Clock.systemUTC()).withoutBroodReconcilers()
        .withoutCellReconcilers();
    // the brood tests write BroodOperation and BroodSchedule status themselves (BroodFixtures, BroodScene)
    operator.start();
    operator.registerCluster(CLUSTER, ClusterRole.CORE, () -> operatorBus);
    BffServer bff = BffServer.start(port, new BffServer.Parts(() -> bffBus, () -> true, CLUSTER, oidc,
        IssuerEndpoints.discover(oidc.issuer()), records, live, mcp), Clock.systemUTC(), loginLimit);
    return new BffStack(operator, bff, List.of());
  }

  /**
   * The BFF as an installation with a record store runs it: runs and activity history from the database (read as
   * varroa_dashboard with the password in {@code passwordFile}), live activity from JetStream, console logs from the
   * postgres log tier. The activity stream must exist ({@code BusTopology.ensureActivity}).
   */
  public static BffStack startRecorded(KubernetesClient client, Path cache, Connection operatorBus,
      Connection bffBus, OidcSettings oidc, int port, DashboardDatabase database, Path passwordFile,
      Function<ConsoleLogs, BffServer.McpMount> mcp) throws Exception {
    return startRecorded(client, cache, operatorBus, bffBus, oidc, port, database, passwordFile, mcp,
        LoginRateLimit.Settings.defaults());
  }

  /** A {@link #startRecorded} stack with its own login rate limit (a browser test logs in many times a minute). */
  public static BffStack startRecorded(KubernetesClient client, Path cache, Connection operatorBus,
      Connection bffBus, OidcSettings oidc, int port, DashboardDatabase database, Path passwordFile,
      Function<ConsoleLogs, BffServer.McpMount> mcp, LoginRateLimit.Settings loginLimit) throws Exception {
    BusFanout fanout = BusFanout.start(bffBus, CLUSTER);
    RunRecords runs = new RunRecords(database.pool().dataSource());
    ConsoleLogs logs = ConsoleLogs.open(BlobStoreSettings.postgres(database.url(), RecordStore.READER_ROLE,
        passwordFile), runs, bffBus).orElseThrow();
    BffStack stack = start(client, cache, operatorBus, bffBus, oidc, port,
        new StoredRecordReads(runs, new Backfill(database.pool().dataSource())),
        reads -> new LiveStreams(reads, Optional.of(fanout), Optional.of(logs)), mcp.apply(logs), loginLimit);
    return new BffStack(stack.operator, stack.bff, List.of(fanout, logs));
  }

  /** The live activity fan-out of a {@link #startRecorded} stack. */
  public BusFanout fanout() {
    return readers.stream().filter(BusFanout.class::isInstance).map(BusFanout.class::cast).findFirst()
        .orElseThrow(() -> new IllegalStateException("this stack was started without live streams"));
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
    for (AutoCloseable reader : readers) {
      reader.close();
    }
  }
}
