package dev.varroa.dashboard.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.varroa.dashboard.records.ControllerScope;
import dev.varroa.dashboard.records.DashboardDatabase;
import dev.varroa.dashboard.records.InvalidParameterException;
import dev.varroa.dashboard.records.RecordLookup;
import dev.varroa.dashboard.records.RunRecords;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.LogAppended;
import dev.varroa.recorder.logs.BlobStoreSettings;
import dev.varroa.recorder.logs.LogExtent;
import dev.varroa.recorder.logs.LogKey;
import dev.varroa.recorder.logs.LogStore;
import dev.varroa.recorder.logs.LogStores;
import dev.varroa.recorder.logs.LogTail;
import dev.varroa.recorder.store.RecordStore;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import io.nats.client.Connection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's console log by byte range and live, the run found by id in the runs table and the bytes read from the
 * postgres log tier as the read-only varroa_dashboard role; the gateway's part (writing, announcing) is played by
 * the recorder's LogStore and a LogAppended publish.
 */
class ConsoleLogsIT {

  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final Predicate<ControllerScope> EVERYTHING = scope -> true;
  private static final Duration DEADLINE = Duration.ofSeconds(20);

  @TempDir
  static Path folder;
  private static DashboardDatabase database;
  private static LogStore writer;

  @BeforeAll
  static void database() throws Exception {
    database = DashboardDatabase.create(POSTGRES.server(), "logs", folder);
    writer = LogStores.open(BlobStoreSettings.postgresWithPassword(database.url(), POSTGRES.server().user(),
        POSTGRES.server().password())).orElseThrow();
  }

  @AfterAll
  static void close() {
    writer.close();
    database.close();
  }

  // The BFF reads the postgres tier as its own role, the password from a file, as the chart sets VARROA_BLOB_*.
  private static BlobStoreSettings readerSettings() {
    return BlobStoreSettings.postgres(database.url(), RecordStore.READER_ROLE, folder.resolve("bff-db-password"));
  }

  private static LogKey run(String runId) throws Exception {
    database.execute("INSERT INTO runs (controller_uid, run_id, cluster, namespace, controller_name, job, "
        + "last_sequence) VALUES ('uid-1', ?, 'core', 'ci', 'app', 'team/app/main', 1)", runId);
    return new LogKey("core", "ci", "app", runId);
  }

  private static void announce(Connection nats, LogKey key, long offset, LogExtent extent) {
    ControllerIdentity controller = new ControllerIdentity(key.namespace(), key.controller(), "uid-1");
    nats.publish(BusNames.logAppended(key.cluster(), controller, key.runId()), LogAppended.newBuilder()
        .setController(controller.toRef()).setCluster(key.cluster()).setRunId(key.runId()).setOffset(offset)
        .setStoredThrough(extent.storedThrough()).setComplete(extent.complete()).build().toByteArray());
  }

  @Test
  void readsByteRangesWithSizeNextAndCompleteness() throws Exception {
    String runId = "range-" + UUID.randomUUID();
    LogKey key = run(runId);
    byte[] first = "Started by user admin\n".getBytes(StandardCharsets.UTF_8);
    writer.write(key, 0, first, false);
    try (ConsoleLogs logs = ConsoleLogs.open(readerSettings(), new RunRecords(database.pool().dataSource()), null)
        .orElseThrow()) {
      ConsoleLogs.LogRange head = found(logs.read(runId, 0, 7, EVERYTHING));
      assertThat(new String(head.bytes(), StandardCharsets.UTF_8)).isEqualTo("Started");
      assertThat(head.size()).isEqualTo(first.length);
      assertThat(head.next()).isEqualTo(7);
      assertThat(head.complete()).isFalse();

      ConsoleLogs.LogRange rest = found(logs.read(runId, 7, ConsoleLogs.DEFAULT_LENGTH, EVERYTHING));
      assertThat(new String(rest.bytes(), StandardCharsets.UTF_8)).isEqualTo(" by user admin\n");
      assertThat(rest.next()).isEqualTo(first.length);
      assertThat(rest.atEnd()).isFalse();

      byte[] last = "Finished: SUCCESS\n".getBytes(StandardCharsets.UTF_8);
      writer.write(key, first.length, last, true);
      ConsoleLogs.LogRange end = found(logs.read(runId, first.length, ConsoleLogs.MAX_LENGTH, EVERYTHING));
      assertThat(new String(end.bytes(), StandardCharsets.UTF_8)).isEqualTo("Finished: SUCCESS\n");
      assertThat(end.complete()).isTrue();
      assertThat(end.atEnd()).isTrue();
      ConsoleLogs.LogRange past = found(logs.read(runId, 10_000, 10, EVERYTHING));
      assertThat(past.bytes()).isEmpty();
      assertThat(past.size()).isEqualTo(first.length + last.length);

      assertThat(logs.read(runId, 0, 10, scope -> false)).isEqualTo(
          new RecordLookup.Denied<>(new ControllerScope("core", "ci", "app", "team/app/main")));
      assertThat(logs.read("no-such-run", 0, 10, EVERYTHING)).isEqualTo(new RecordLookup.Missing<>());
      assertThatThrownBy(() -> logs.read(runId, 0, ConsoleLogs.MAX_LENGTH + 1, EVERYTHING))
          .isInstanceOf(InvalidParameterException.class).hasMessageContaining("1048576")
          .satisfies(e -> assertThat(((InvalidParameterException) e).parameter()).isEqualTo("length"));
      assertThatThrownBy(() -> logs.read(runId, -1, 10, EVERYTHING))
          .satisfies(e -> assertThat(((InvalidParameterException) e).parameter()).isEqualTo("from"));
    }
  }

  @Test
  void followsTheLogLiveInWholeCharactersUntilItIsComplete() throws Exception {
    String runId = "follow-" + UUID.randomUUID();
    LogKey key = run(runId);
    byte[] euro = "price 5 €\n".getBytes(StandardCharsets.UTF_8);
    // The first write ends inside "€": the follower must not see half a character.
    int split = euro.length - 2;
    writer.write(key, 0, java.util.Arrays.copyOf(euro, split), false);
    List<String> chunks = new CopyOnWriteArrayList<>();
    List<Long> nexts = new CopyOnWriteArrayList<>();
    AtomicLong endedAt = new AtomicLong(-1);
    try (Connection nats = NATS.server().connect();
        ConsoleLogs logs = ConsoleLogs.open(readerSettings(), new RunRecords(database.pool().dataSource()), nats)
            .orElseThrow()) {
      ConsoleLogs.Follower follower = new ConsoleLogs.Follower() {
        @Override
        public void chunk(long offset, String text, long next) {
          assertThat(offset).isEqualTo(nexts.isEmpty() ? 0 : nexts.get(nexts.size() - 1));
          chunks.add(text);
          nexts.add(next);
        }

        @Override
        public void end(long size) {
          endedAt.set(size);
        }
      };
      LogTail tail = ((RecordLookup.Found<LogTail>) logs.follow(runId, 0, EVERYTHING, follower)).value();
      // The tail advances its position before it hands the bytes over: wait for what the follower saw.
      await().atMost(DEADLINE).until(() -> !chunks.isEmpty());
      assertThat(tail.position()).isEqualTo(split);
      assertThat(String.join("", chunks)).isEqualTo("price 5 ");
      assertThat(nexts).containsExactly((long) "price 5 ".length());

      LogExtent whole = writer.write(key, split, java.util.Arrays.copyOfRange(euro, split, euro.length), false);
      announce(nats, key, split, whole);
      await().atMost(DEADLINE).until(() -> String.join("", chunks).equals("price 5 €\n"));

      byte[] done = "Finished: SUCCESS\n".getBytes(StandardCharsets.UTF_8);
      LogExtent complete = writer.write(key, euro.length, done, true);
      announce(nats, key, euro.length, complete);
      await().atMost(DEADLINE).until(() -> endedAt.get() >= 0);
      assertThat(String.join("", chunks)).isEqualTo("price 5 €\nFinished: SUCCESS\n");
      assertThat(endedAt.get()).isEqualTo(euro.length + done.length);
      assertThat(tail.isOpen()).isFalse();

      // Resuming from an SSE id (a chunk's next) hands over only what follows it.
      List<String> resumed = new CopyOnWriteArrayList<>();
      AtomicLong resumedEnd = new AtomicLong(-1);
      logs.follow(runId, euro.length, EVERYTHING, new ConsoleLogs.Follower() {
        @Override
        public void chunk(long offset, String text, long next) {
          resumed.add(text);
        }

        @Override
        public void end(long size) {
          resumedEnd.set(size);
        }
      });
      await().atMost(DEADLINE).until(() -> resumedEnd.get() >= 0);
      assertThat(resumed).containsExactly("Finished: SUCCESS\n");
      assertThat(logs.follow(runId, 0, scope -> false, follower)).isInstanceOf(RecordLookup.Denied.class);
    }
  }

  @SuppressWarnings("unchecked")
  private static ConsoleLogs.LogRange found(RecordLookup<ConsoleLogs.LogRange> lookup) {
    assertThat(lookup).isInstanceOf(RecordLookup.Found.class);
    return ((RecordLookup.Found<ConsoleLogs.LogRange>) lookup).value();
  }
}
