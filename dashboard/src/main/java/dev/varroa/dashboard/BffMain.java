package dev.varroa.dashboard;

import dev.varroa.dashboard.api.LiveStreams;
import dev.varroa.dashboard.identity.IssuerEndpoints;
import dev.varroa.dashboard.activity.BusFanout;
import dev.varroa.dashboard.logs.ConsoleLogTail;
import dev.varroa.dashboard.logs.ConsoleLogs;
import dev.varroa.dashboard.mcp.McpEndpoint;
import dev.varroa.dashboard.reads.RecordReads;
import dev.varroa.dashboard.reads.StoredRecordReads;
import dev.varroa.dashboard.records.Backfill;
import dev.varroa.dashboard.records.RecordStoreReadPool;
import dev.varroa.dashboard.records.RecordStoreSettings;
import dev.varroa.dashboard.records.RunRecords;
import dev.varroa.recorder.logs.BlobStoreSettings;
import dev.varroa.protocol.ReleaseVersion;
import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.protocol.bus.BusCredentialFiles;
import dev.varroa.protocol.bus.BusTrust;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The BFF process (image varroa/dashboard): settings from the environment, then the server until stopped. */
public final class BffMain {

  private static final Logger LOG = LoggerFactory.getLogger(BffMain.class);
  /** How long the BFF waits for its OpenID provider at start (Dex may start after it). */
  static final Duration ISSUER_WAIT = Duration.ofMinutes(2);

  private BffMain() {}

  public static void main(String[] args) throws Exception {
    if (ReleaseVersion.requested(args)) {
      System.out.println(ReleaseVersion.line("dashboard"));
      return;
    }
    BffSettings settings;
    try {
      settings = BffSettings.fromEnv(System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println("varroa-dashboard: " + e.getMessage());
      System.exit(2);
      return;
    }
    SSLContext tls = settings.natsCaFile().isEmpty() ? null : BusTrust.trusting(
        Files.readString(settings.natsCaFile().get(), StandardCharsets.US_ASCII),
        "VARROA_NATS_CA_FILE " + settings.natsCaFile().get());
    BusConnection bus = BusConnection.open("dashboard", settings.natsUrl(),
        new BusCredentialFiles(settings.natsUser().orElse(null), null, settings.natsPasswordFile().orElse(null)), tls);
    IssuerEndpoints issuer = discover(settings);
    RecordStoreSettings recordStore = RecordStoreSettings.fromEnv(System.getenv());
    Optional<RecordStoreReadPool> pool = recordStore.enabled() ? Optional.of(RecordStoreReadPool.open(recordStore))
        : Optional.empty();
    Optional<RunRecords> runs = pool.map(p -> new RunRecords(p.dataSource()));
    RecordReads records = runs.<RecordReads>map(r -> new StoredRecordReads(r, new Backfill(pool.get().dataSource())))
        .orElseGet(RecordReads::none);
    Optional<ConsoleLogs> logs = runs.flatMap(r -> ConsoleLogs.open(BlobStoreSettings.fromEnv(System.getenv()), r,
        bus.connection()));
    Optional<BusFanout> fanout = Optional.of(BusFanout.start(bus.connection(), settings.coreCluster()));
    BffServer server = BffServer.start(settings.httpPort(), new BffServer.Parts(bus::connection, bus::isConnected,
        settings.coreCluster(), settings.oidc(), issuer, records, reads -> new LiveStreams(reads, fanout, logs),
        logs.map(ConsoleLogTail::new).map(McpEndpoint::mount).orElseGet(McpEndpoint::mount)), Clock.systemUTC(),
        settings.loginLimit());
    LOG.info("event=bff_started port={} cluster={} issuer={} record_store={} console_logs={} "
        + "login_rate_limit_per_minute={}", server.port(), settings.coreCluster(), issuer.issuer(),
        recordStore.describe(), logs.isPresent(), settings.loginLimit().perMinute());
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        server.close();
        fanout.ifPresent(BusFanout::close);
        logs.ifPresent(ConsoleLogs::close);
        pool.ifPresent(RecordStoreReadPool::close);
        bus.close();
      } catch (Exception e) {
        LOG.warn("event=bff_stop_failed error=\"{}\"", e.getMessage());
      }
      stopped.countDown();
    }));
    stopped.await();
  }

  static IssuerEndpoints discover(BffSettings settings) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + ISSUER_WAIT.toNanos();
    while (true) {
      try {
        return IssuerEndpoints.discover(settings.oidc().issuer());
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        LOG.info("event=issuer_waiting issuer={} error=\"{}\"", settings.oidc().issuer(), e.getMessage());
        Thread.sleep(2000);
      }
    }
  }
}
