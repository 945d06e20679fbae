package dev.varroa.plugin.logs;

import static dev.varroa.plugin.logs.LogCopiesTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.plugin.PluginCore;
import dev.varroa.plugin.config.PluginSettings;
import dev.varroa.plugin.logs.LogShipper.Round;
import dev.varroa.plugin.loopback.LoopbackClient;
import dev.varroa.plugin.loopback.LoopbackToken;
import dev.varroa.plugin.testing.SteppedClock;
import dev.varroa.protocol.builds.v1.LogChunk;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipper against a stand-in for the mite's {@code POST /v1/logs} over real HTTP on 127.0.0.1. Rounds are run by
 * hand ({@link LogShipper#shipOnce()}) on a {@link SteppedClock}, so every wait is checked without waiting.
 */
class LogShipperIT {

  private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");

  @TempDir
  Path home;

  private final SteppedClock clock = new SteppedClock(START);
  private MiteLogsStandIn mite;
  private LoopbackClient client;
  private LogCopies copies;
  private LogShipper shipper;

  @BeforeEach
  void setUp() throws Exception {
    Path tokenFile = home.resolve("loopback-token");
    mite = MiteLogsStandIn.start(tokenFile, "token");
    PluginSettings settings = PluginSettings.fromEnvironment(Map.of(
        "VARROA_LOOPBACK_URL", mite.url().toString(), "VARROA_LOOPBACK_TOKEN_FILE", tokenFile.toString()));
    client = new LoopbackClient(settings, new LoopbackToken(tokenFile, clock));
    copies = LogCopies.open(LogCopies.directoryOf(home), 64L << 20);
    shipper = new LogShipper(copies, client::sendLogs, clock);
  }

  @AfterEach
  void tearDown() {
    client.close();
    mite.close();
  }

  @Test
  void sendsUnshippedBytesInChunksOfAtMost256KiBAndBatchesOfAtMost1MiBAsBinaryProtobuf() throws Exception {
    byte[] log = bytes(1_300_000);
    copies.copy("run-a", "team/app").append(log, 0, log.length);

    assertThat(shipper.shipOnce()).isEqualTo(Round.ANSWERED);
    assertThat(shipper.shipOnce()).isEqualTo(Round.ANSWERED);
    assertThat(shipper.shipOnce()).isEqualTo(Round.NOTHING_DUE);

    assertThat(mite.contentTypes()).containsOnly("application/x-protobuf");
    assertThat(mite.batches()).hasSize(2);
    assertThat(mite.batches().get(0).getChunksList()).extracting(c -> c.getData().size())
        .containsExactly(262_144, 262_144, 262_144, 262_144);
    assertThat(mite.batches().get(1).getChunksList()).extracting(c -> c.getData().size())
        .containsExactly(1_300_000 - 4 * 262_144);
    assertThat(mite.chunks()).extracting(LogChunk::getOffset)
        .containsExactly(0L, 262_144L, 524_288L, 786_432L, 1_048_576L);
    assertThat(mite.chunks()).allMatch(c -> c.getJob().equals("team/app") && !c.getLast());
    assertThat(mite.stored("run-a")).isEqualTo(log);
    assertThat(copies.copy("run-a", "team/app").shipped()).isEqualTo(log.length);
  }

  @Test
  void aFinishedRunSendsItsLastChunkAndItsCopyGoesOnceTheStoreHoldsItAll() throws Exception {
    OutputStream sink = copies.copy("run-a", "team/app").sink(new ByteArrayOutputStream());
    sink.write("one\n".getBytes(StandardCharsets.UTF_8));
    shipper.shipOnce();
    sink.write("two\n".getBytes(StandardCharsets.UTF_8));
    copies.finished("run-a");

    assertThat(shipper.shipOnce()).isEqualTo(Round.ANSWERED);

    LogChunk last = mite.chunks().get(1);
    assertThat(last.getOffset()).isEqualTo(4);
    assertThat(last.getData().toStringUtf8()).isEqualTo("two\n");
    assertThat(last.getLast()).isTrue();
    assertThat(mite.complete("run-a")).isTrue();
    assertThat(new String(mite.stored("run-a"), StandardCharsets.UTF_8)).isEqualTo("one\ntwo\n");
    assertThat(copies.runIds()).isEmpty();
    assertThat(copies.status().usedBytes()).isZero();
    try (var files = Files.list(LogCopies.directoryOf(home))) {
      assertThat(files).isEmpty();
    }
    assertThat(shipper.shipOnce()).isEqualTo(Round.NOTHING_DUE);
  }

  @Test
  void aRunFinishedAfterAllItsBytesWentSendsAnEmptyLastChunk() throws Exception {
    copies.copy("run-a", "team/app").append(bytes(10), 0, 10);
    shipper.shipOnce();
    copies.finished("run-a");

    shipper.shipOnce();

    LogChunk last = mite.chunks().get(1);
    assertThat(last.getOffset()).isEqualTo(10);
    assertThat(last.getData().isEmpty()).isTrue();
    assertThat(last.getLast()).isTrue();
    assertThat(mite.complete("run-a")).isTrue();
    assertThat(copies.runIds()).isEmpty();
  }

  @Test
  void aGapRewindsTheRunToStoredThrough() throws Exception {
    LogCopy copy = copies.copy("run-a", "team/app");
    copy.append(bytes(100), 0, 100);
    shipper.shipOnce();
    mite.truncate("run-a", 40);
    byte[] more = "more".getBytes(StandardCharsets.UTF_8);
    copy.append(more, 0, more.length);

    shipper.shipOnce();
    assertThat(copy.shipped()).as("the gap's stored_through").isEqualTo(40);
    shipper.shipOnce();

    assertThat(mite.chunks()).extracting(LogChunk::getOffset).containsExactly(0L, 100L, 40L);
    assertThat(mite.chunks().get(2).getData().size()).isEqualTo(64);
    assertThat(copy.shipped()).isEqualTo(104);
    byte[] expected = new byte[104];
    System.arraycopy(bytes(100), 0, expected, 0, 100);
    System.arraycopy(more, 0, expected, 100, 4);
    assertThat(mite.stored("run-a")).isEqualTo(expected);
  }

  @Test
  void notStoredDropsTheRunsCopyAndCopiesNothingMoreOfIt() throws Exception {
    mite.notStored(true);
    LogCopy copy = copies.copy("run-a", "team/app");
    ByteArrayOutputStream jenkins = new ByteArrayOutputStream();
    OutputStream sink = copy.sink(jenkins);
    sink.write(bytes(50));

    shipper.shipOnce();
    sink.write(bytes(20));

    assertThat(copy.dropped()).isTrue();
    assertThat(jenkins.size()).isEqualTo(70);
    assertThat(copies.status().usedBytes()).isZero();
    assertThat(Files.exists(LogCopies.directoryOf(home).resolve("run-a.log"))).isFalse();
    assertThat(shipper.shipOnce()).isEqualTo(Round.NOTHING_DUE);
    assertThat(mite.batches()).hasSize(1);
    copies.finished("run-a");
    assertThat(copies.runIds()).isEmpty();
    try (var files = Files.list(LogCopies.directoryOf(home))) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void unavailableHoldsBackThatRunAloneOn1_2_5_10Then30Seconds() throws Exception {
    mite.unavailable("run-a", true);
    copies.copy("run-a", "team/a").append(bytes(10), 0, 10);
    LogCopy b = copies.copy("run-b", "team/b");
    b.append(bytes(10), 0, 10);

    List<Duration> waits = new ArrayList<>();
    shipper.shipOnce();
    for (int i = 0; i < 6; i++) {
      Duration wait = Duration.between(clock.instant(), shipper.runWaitUntil("run-a"));
      waits.add(wait);
      clock.advance(wait.minusMillis(1));
      b.append(bytes(1), 0, 1);
      int before = mite.chunks().size();
      shipper.shipOnce();
      // only run-b went: run-a still waits
      assertThat(mite.chunks().subList(before, mite.chunks().size())).extracting(LogChunk::getRunId)
          .containsExactly("run-b");
      clock.advance(Duration.ofMillis(1));
      shipper.shipOnce();
    }

    assertThat(waits).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(5),
        Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(30));
    mite.unavailable("run-a", false);
    clock.advance(Duration.ofSeconds(30));
    shipper.shipOnce();
    assertThat(mite.stored("run-a")).isEqualTo(bytes(10));
    assertThat(shipper.runWaitUntil("run-a")).isEqualTo(Instant.EPOCH);
  }

  @Test
  void noAnswerFromTheMiteHoldsBackEveryRunOnTheSameSchedule() throws Exception {
    copies.copy("run-a", "team/a").append(bytes(10), 0, 10);
    mite.answerStatus(503);

    assertThat(shipper.shipOnce()).isEqualTo(Round.FAILED);
    assertThat(shipper.waitUntil()).isEqualTo(START.plusSeconds(1));
    assertThat(shipper.shipOnce()).isEqualTo(Round.NOTHING_DUE);
    clock.advance(Duration.ofSeconds(1));
    mite.answerStatus(504);
    assertThat(shipper.shipOnce()).isEqualTo(Round.FAILED);
    assertThat(shipper.waitUntil()).isEqualTo(START.plusSeconds(1 + 2));
    clock.advance(Duration.ofSeconds(2));
    mite.answerStatus(500);
    assertThat(shipper.shipOnce()).isEqualTo(Round.FAILED);
    assertThat(shipper.waitUntil()).isEqualTo(START.plusSeconds(1 + 2 + 5));
    clock.advance(Duration.ofSeconds(5));
    // no mite at all
    mite.close();
    assertThat(shipper.shipOnce()).isEqualTo(Round.FAILED);
    assertThat(shipper.waitUntil()).isEqualTo(START.plusSeconds(1 + 2 + 5 + 10));
    assertThat(copies.copy("run-a", "team/a").shipped()).isZero();
  }

  @Test
  void aRestartResumesFromTheShippedOffset() throws Exception {
    LogCopy copy = copies.copy("run-a", "team/app");
    copy.append(bytes(100), 0, 100);
    shipper.shipOnce();
    copy.append(bytes(50), 0, 50);
    copies.close();

    // Jenkins restarts: a new core opens the same folder
    LogCopies reopened = LogCopies.open(LogCopies.directoryOf(home), 64L << 20);
    LogShipper after = new LogShipper(reopened, client::sendLogs, clock);
    reopened.copy("run-a", "team/app").sink(new ByteArrayOutputStream()).write(bytes(5));
    reopened.finished("run-a");
    after.shipOnce();

    assertThat(mite.chunks()).extracting(LogChunk::getOffset).containsExactly(0L, 100L);
    assertThat(mite.chunks().get(1).getData().size()).isEqualTo(55);
    assertThat(mite.chunks().get(1).getLast()).isTrue();
    assertThat(mite.complete("run-a")).isTrue();
    assertThat(mite.stored("run-a")).hasSize(155);
    assertThat(reopened.runIds()).isEmpty();
  }

  @Test
  void theCoreShipsARunsConsoleLogInTheBackgroundAndForgetsItOnceComplete() throws Exception {
    Path tokenFile = home.resolve("loopback-token");
    PluginSettings settings = PluginSettings.fromEnvironment(Map.of(
        "VARROA_LOOPBACK_URL", mite.url().toString(), "VARROA_LOOPBACK_TOKEN_FILE", tokenFile.toString()));
    Path otherHome = home.resolve("jenkins");
    try (PluginCore core = PluginCore.start(settings, otherHome, Clock.systemUTC())) {
      ByteArrayOutputStream jenkins = new ByteArrayOutputStream();
      try (OutputStream console = core.log("run-core", "team/app").sink(jenkins)) {
        console.write("Started\n".getBytes(StandardCharsets.UTF_8));
        console.write("Finished: SUCCESS\n".getBytes(StandardCharsets.UTF_8));
      }
      core.runFinished("run-core");

      await().atMost(Duration.ofSeconds(10)).until(() -> mite.complete("run-core"));
      assertThat(new String(mite.stored("run-core"), StandardCharsets.UTF_8)).isEqualTo("Started\nFinished: SUCCESS\n");
      assertThat(jenkins.toString(StandardCharsets.UTF_8)).isEqualTo("Started\nFinished: SUCCESS\n");
      await().atMost(Duration.ofSeconds(10)).until(() -> core.logs().runIds().isEmpty());
    }
  }
}
