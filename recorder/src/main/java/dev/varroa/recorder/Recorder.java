package dev.varroa.recorder;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.bus.Redaction;
import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.protocol.bus.BusCredentialFiles;
import dev.varroa.protocol.bus.BusListener;
import dev.varroa.protocol.bus.BusTrust;
import dev.varroa.recorder.logs.LogStore;
import dev.varroa.recorder.retention.RetentionRules;
import dev.varroa.recorder.retention.RetentionSweeper;
import dev.varroa.recorder.store.ActivityWriter;
import dev.varroa.recorder.store.BuildEventWriter;
import dev.varroa.recorder.store.ClaimLedger;
import dev.varroa.recorder.store.JobScheduleReader;
import dev.varroa.recorder.store.PipelineRequests;
import dev.varroa.recorder.store.RecordStore;
import dev.varroa.recorder.store.TeamPlacementWriter;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running recorder: the schema migrated, the durable consumer on varroa_builds writing PostgreSQL, the ledger
 * answering claims, and the probes. Everything it knows is in PostgreSQL; a new recorder carries on from there.
 */
public final class Recorder implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Recorder.class);

  static final Duration MIGRATION_RETRY_START = Duration.ofSeconds(1);
  static final Duration MIGRATION_RETRY_CAP = Duration.ofSeconds(30);
  /** How often /readyz's view of PostgreSQL is refreshed when nothing else touched the database. */
  static final Duration DATABASE_CHECK_INTERVAL = Duration.ofSeconds(5);
  /** How often the gateway's log role is (re)granted its tables: CloudNativePG may create the role after migration. */
  static final Duration LOG_WRITER_GRANT_INTERVAL = Duration.ofMinutes(1);
  /** How often the BFF's read role is (re)granted its tables, for the same reason. */
  static final Duration READER_GRANT_INTERVAL = Duration.ofMinutes(1);

  private final HealthEndpoint health;
  private final RecordStore store;
  private final BusConnection bus;
  private final BuildEventConsumer consumer;
  private final ActivityConsumer activity;
  private final RetentionSweeper retention;
  private final LedgerResponder ledger;
  private final JobSchedulesResponder schedules;
  private final TeamPlacementsResponder placements;
  private final PipelineRunsResponder pipelineRuns;
  private final PipelineCallsResponder pipelineCalls;
  private final CellWakes cellWakes;
  private final ScheduledExecutorService checks;
  private final Optional<LogStore> logs;
  private final AtomicBoolean stopped = new AtomicBoolean();

  private Recorder(HealthEndpoint health, RecordStore store, BusConnection bus, BuildEventConsumer consumer,
      ActivityConsumer activity, RetentionSweeper retention, LedgerResponder ledger, JobSchedulesResponder schedules,
      TeamPlacementsResponder placements, PipelineRunsResponder pipelineRuns, PipelineCallsResponder pipelineCalls,
      CellWakes cellWakes,
      ScheduledExecutorService checks, Optional<LogStore> logs) {
    this.schedules = schedules;
    this.placements = placements;
    this.pipelineRuns = pipelineRuns;
    this.pipelineCalls = pipelineCalls;
    this.cellWakes = cellWakes;
    this.logs = logs;
    this.health = health;
    this.store = store;
    this.bus = bus;
    this.consumer = consumer;
    this.activity = activity;
    this.retention = retention;
    this.ledger = ledger;
    this.checks = checks;
  }

  /**
   * Opens the probes, migrates the schema (waiting for PostgreSQL with backoff), connects to NATS (must be reachable
   * now), makes sure of the stream and its consumer, then starts consuming and answering claims.
   */
  // jnats re-reads the password file at every attempt and a connection it gives up on is replaced (BusConnection)
  private static BusConnection openBus(RecorderSettings settings) throws IOException, InterruptedException {
    SSLContext tls = settings.natsCaFile() == null ? null : BusTrust.trusting(
        Files.readString(settings.natsCaFile(), StandardCharsets.US_ASCII), "VARROA_NATS_CA_FILE " + settings.natsCaFile());
    try {
      return BusConnection.open("recorder", settings.natsUrl(),
          new BusCredentialFiles(settings.natsUser(), null, settings.natsPasswordFile()), tls);
    } catch (IOException e) {
      throw new IOException(e.getMessage() + " (VARROA_NATS_URL)", e);
    }
  }

  /** With the default retention and no console log store. */
  public static Recorder start(RecorderSettings settings) throws IOException, InterruptedException {
    return start(settings, RetentionRules.defaults(), Optional.empty());
  }

  /**
   * Also drains the activity buffer and sweeps by the retention rules.
   *
   * @param logs the console log store the sweep ages logs in, when one is configured
   */
  public static Recorder start(RecorderSettings settings, RetentionRules retentionRules, Optional<LogStore> logs)
      throws IOException, InterruptedException {
    AtomicBoolean databaseUp = new AtomicBoolean();
    AtomicBoolean natsStarted = new AtomicBoolean();
    BusConnection[] busHolder = new BusConnection[1];
    HealthEndpoint health = new HealthEndpoint(settings.healthPort(), () -> {
      if (!databaseUp.get()) {
        return Optional.of("waiting for PostgreSQL (VARROA_RECORDER_DSN)");
      }
      if (!natsStarted.get() || !busHolder[0].isConnected()) {
        return Optional.of("waiting for NATS (VARROA_NATS_URL)");
      }
      return Optional.empty();
    });
    RecordStore store = RecordStore.open(settings);
    BusConnection bus = null;
    try {
      migrateWhenReachable(store);
      databaseUp.set(true);
      bus = openBus(settings);
      busHolder[0] = bus;
      natsStarted.set(true);
      BusTopology.ensure(bus.connection());
      try {
        BusTopology.ensureActivity(bus.connection());
      } catch (JetStreamApiException | IOException e) {
        // Build records and claims do not depend on activity: the activity consumer keeps asking for its buffer.
        LOG.warn("event=activity_buffer_unavailable stream={} error=\"{}\"", BusNames.ACTIVITY_STREAM,
            Redaction.describe(e));
      }
      BuildEventConsumer consumer = new BuildEventConsumer(bus,
          new BuildEventWriter(store.dataSource(), settings.clusterName()), databaseUp::set);
      LedgerResponder ledger = new LedgerResponder(new ClaimLedger(store.dataSource(), settings.clusterName()));
      JobSchedulesResponder schedules = new JobSchedulesResponder(new JobScheduleReader(store.dataSource()));
      TeamPlacementsResponder placements = new TeamPlacementsResponder(new TeamPlacementWriter(store.dataSource()));
      CellWakes cellWakes = new CellWakes(bus::connection, CellWakes.ANSWER_WAIT);
      PipelineRequests pipelineRequests = new PipelineRequests(store.dataSource());
      PipelineRunsResponder pipelineRuns = new PipelineRunsResponder(pipelineRequests, cellWakes,
          PipelineRunsResponder.OPERATOR_ANSWER_WAIT);
      PipelineCallsResponder pipelineCalls = new PipelineCallsResponder(pipelineRuns, pipelineRequests,
          settings.dashboardUrl());
      bus.addListener(new BusListener() {
        @Override
        public void connected(Connection connection) {
          ledger.subscribe(connection);
          schedules.subscribe(connection);
          placements.subscribe(connection);
          pipelineCalls.subscribe(connection);
          pipelineRuns.subscribe(connection);
        }
      });
      ActivityConsumer activity = new ActivityConsumer(bus, new ActivityWriter(store.dataSource(),
          settings.clusterName()), databaseUp::set);
      RetentionSweeper retention = new RetentionSweeper(store.dataSource(), retentionRules, logs, Clock.systemUTC());
      consumer.start();
      activity.start();
      retention.start();
      ScheduledExecutorService checks = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "varroa-recorder-checks");
        thread.setDaemon(true);
        return thread;
      });
      checks.scheduleWithFixedDelay(() -> databaseUp.set(store.reachable()), DATABASE_CHECK_INTERVAL.toMillis(),
          DATABASE_CHECK_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
      AtomicBoolean granted = new AtomicBoolean();
      checks.scheduleWithFixedDelay(() -> {
        boolean now = store.grantLogWriterRole();
        if (now && !granted.getAndSet(true)) {
          LOG.info("event=log_writer_role_granted role={}", RecordStore.LOG_WRITER_ROLE);
        }
        granted.set(now);
      }, 0, LOG_WRITER_GRANT_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
      AtomicBoolean readerGranted = new AtomicBoolean();
      checks.scheduleWithFixedDelay(() -> {
        boolean now = store.grantReaderRole();
        if (now && !readerGranted.getAndSet(true)) {
          LOG.info("event=reader_role_granted role={}", RecordStore.READER_ROLE);
        }
        readerGranted.set(now);
      }, 0, READER_GRANT_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
      LOG.info("event=recorder_started dsn={} nats={} health={} cluster={}",
          RecorderSettings.withoutQuery(settings.dsn()), settings.natsUrl(), health.port(), settings.clusterName());
      return new Recorder(health, store, bus, consumer, activity, retention, ledger, schedules, placements,
          pipelineRuns, pipelineCalls, cellWakes, checks, logs);
    } catch (IOException | JetStreamApiException | RuntimeException | InterruptedException e) {
      if (bus != null) {
        bus.close();
      }
      store.close();
      health.close();
      if (e instanceof IOException io) {
        throw io;
      }
      if (e instanceof InterruptedException interrupted) {
        throw interrupted;
      }
      throw new IOException("the recorder could not start: " + e.getMessage(), e);
    }
  }

  // PostgreSQL may start after the recorder (a fresh installation): wait for it rather than crash-loop.
  private static void migrateWhenReachable(RecordStore store) throws InterruptedException {
    Duration wait = MIGRATION_RETRY_START;
    while (true) {
      try {
        store.migrate();
        return;
      } catch (RuntimeException e) {
        LOG.warn("event=schema_migration_failed retryIn={} error=\"{}\"", wait, rootMessage(e));
      }
      Thread.sleep(wait.toMillis());
      Duration doubled = wait.multipliedBy(2);
      wait = doubled.compareTo(MIGRATION_RETRY_CAP) > 0 ? MIGRATION_RETRY_CAP : doubled;
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root == e ? String.valueOf(e.getMessage()) : e.getMessage() + ": " + root.getMessage();
  }

  /** Sends cell wakes to the operators of the clusters (seed 002), over this recorder's NATS connection. */
  public CellWakes cellWakes() {
    return cellWakes;
  }

  public int healthPort() {
    return health.port();
  }

  /** Stops pulling, answers no more claims, closes NATS and the pool. Unacked groups are redelivered to the next recorder. */
  @Override
  public void close() throws InterruptedException {
    if (!stopped.compareAndSet(false, true)) {
      return;
    }
    LOG.info("event=recorder_stopping");
    checks.shutdownNow();
    retention.close();
    logs.ifPresent(LogStore::close);
    consumer.close();
    activity.close();
    ledger.close();
    schedules.close();
    placements.close();
    pipelineCalls.close();
    pipelineRuns.close();
    bus.close();
    store.close();
    health.close();
  }
}
