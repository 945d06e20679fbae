package dev.varroa.plugin.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.plugin.testing.SteppedClock;
import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.EventKey;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventSpoolTest {

  @TempDir
  Path home;

  private final SteppedClock clock = new SteppedClock(Instant.parse("2026-12-01T10:00:00Z"));

  private Path spoolDir() {
    return EventSpool.directoryOf(home);
  }

  @Test
  void livesUnderJenkinsHomeVarroaSpool() {
    assertThat(spoolDir()).isEqualTo(home.resolve("varroa/spool"));
  }

  @Test
  void numbersEachRunsEventsAndKeepsThemInOrderUntilAcknowledged() throws IOException {
    try (EventSpool spool = EventSpool.open(spoolDir(), 1 << 20, clock)) {
      BuildEventEmitter emitter = new BuildEventEmitter(spool, clock);
      emitter.runQueued("run-a", "team/app", 7, "Started by timer");
      emitter.runQueued("run-b", "team/lib", 8, "Started by user");
      emitter.runStarted("run-a", "team/app", 12, "built-in", 40, "Started by timer");

      List<BuildEvent> batch = spool.nextBatch(10, 1 << 20);

      assertThat(batch).extracting(BuildEvent::getRunId, BuildEvent::getSequence)
          .containsExactly(tuple("run-a", 1), tuple("run-b", 1), tuple("run-a", 2));
      assertThat(batch.get(2).getRunStarted().getBuildNumber()).isEqualTo(12);
      assertThat(batch.get(2).getRunStarted().getNode()).isEqualTo("built-in");
      assertThat(batch.get(0).getEmittedAtEpochMillis()).isEqualTo(clock.millis());

      spool.acknowledge(List.of(key("run-a", 1)));
      assertThat(spool.nextBatch(10, 1 << 20)).extracting(BuildEvent::getRunId, BuildEvent::getSequence)
          .containsExactly(tuple("run-b", 1), tuple("run-a", 2));
      assertThat(spool.status().pendingEvents()).isEqualTo(2);
    }
  }

  @Test
  void aRestartResendsWhatWasNotAcknowledgedInOrderAndContinuesEachRunsNumbers() throws IOException {
    try (EventSpool spool = EventSpool.open(spoolDir(), 1 << 20, clock)) {
      BuildEventEmitter emitter = new BuildEventEmitter(spool, clock);
      emitter.runQueued("run-a", "team/app", 1, "timer");
      emitter.runStarted("run-a", "team/app", 5, "agent-1", 10, "timer");
      emitter.runQueued("run-b", "team/lib", 2, "user");
      emitter.stageStarted("run-b", "team/lib", "6", "Build", "");
      spool.acknowledge(List.of(key("run-a", 1), key("run-a", 2), key("run-b", 1)));
    }

    try (EventSpool reopened = EventSpool.open(spoolDir(), 1 << 20, clock)) {
      assertThat(reopened.nextBatch(10, 1 << 20)).extracting(BuildEvent::getRunId, BuildEvent::getSequence)
          .containsExactly(tuple("run-b", 2));
      BuildEventEmitter emitter = new BuildEventEmitter(reopened, clock);
      // run-a's events were all acknowledged and its segment may be gone: its numbers still go on.
      assertThat(emitter.stageStarted("run-a", "team/app", "3", "Test", "").spooled()).isTrue();
      emitter.stageEnded("run-b", "team/lib", "6", "Build", "", "SUCCESS", 1200);

      assertThat(reopened.nextBatch(10, 1 << 20)).extracting(BuildEvent::getRunId, BuildEvent::getSequence)
          .containsExactly(tuple("run-b", 2), tuple("run-a", 3), tuple("run-b", 3));
    }
  }

  @Test
  void aFinalizedRunIsForgottenAndItsFullyAcknowledgedFilesAreDeleted() throws IOException {
    try (EventSpool spool = EventSpool.open(spoolDir(), 64 << 10, clock)) {
      BuildEventEmitter emitter = new BuildEventEmitter(spool, clock);
      emitter.runQueued("run-a", "team/app", 1, "timer");
      emitter.runFinalized("run-a", "team/app", 5, "SUCCESS", 1000);
      assertThat(spool.lastSequence("run-a")).isZero();

      spool.acknowledge(spool.nextBatch(10, 1 << 20).stream().map(RunSequence::of).map(RunSequence::toKey).toList());

      assertThat(spool.status().pendingEvents()).isZero();
      assertThat(spool.status().usedBytes()).isZero();
      try (Stream<Path> files = Files.list(spoolDir())) {
        assertThat(files.map(path -> path.getFileName().toString())).containsExactly(EventSpool.OPEN_RUNS_FILE);
      }
    }
  }

  @Test
  void aTornLastRecordIsCutOffAndTheRestIsKept() throws IOException {
    try (EventSpool spool = EventSpool.open(spoolDir(), 1 << 20, clock)) {
      BuildEventEmitter emitter = new BuildEventEmitter(spool, clock);
      emitter.runQueued("run-a", "team/app", 1, "timer");
      emitter.runQueued("run-b", "team/app", 2, "timer");
    }
    Path segment;
    try (Stream<Path> files = Files.list(spoolDir())) {
      segment = files.filter(path -> path.toString().endsWith(".log")).findFirst().orElseThrow();
    }
    try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
      // A crash in the middle of a third record: a header that promises more bytes than were written.
      channel.write(ByteBuffer.allocate(6).putInt(500).putShort((short) 1).flip(), channel.size());
    }

    try (EventSpool reopened = EventSpool.open(spoolDir(), 1 << 20, clock)) {
      assertThat(reopened.nextBatch(10, 1 << 20)).extracting(BuildEvent::getRunId).containsExactly("run-a", "run-b");
      new BuildEventEmitter(reopened, clock).runStarted("run-a", "team/app", 3, "built-in", 0, "timer");
      assertThat(reopened.nextBatch(10, 1 << 20)).extracting(BuildEvent::getRunId, BuildEvent::getSequence)
          .containsExactly(tuple("run-a", 1), tuple("run-b", 1), tuple("run-a", 2));
    }
  }

  @Test
  void atTheCapRefusesNewEventsCountsThemWarnsOnceAMinuteAndKeepsWhatIsSpooled() throws IOException {
    List<LogRecord> warnings = new ArrayList<>();
    Handler handler = capture(warnings);
    Logger logger = Logger.getLogger(EventSpool.class.getName());
    logger.addHandler(handler);
    try (EventSpool spool = EventSpool.open(spoolDir(), 16 << 10, clock)) {
      BuildEventEmitter emitter = new BuildEventEmitter(spool, clock);
      int spooled = 0;
      while (emitter.stageStarted("run-a", "team/app", "s" + spooled, "Stage " + spooled, "").spooled()) {
        spooled++;
      }
      SpoolAdmission refusedAgain = emitter.stageStarted("run-a", "team/app", "late", "Late", "");

      assertThat(refusedAgain).isInstanceOf(SpoolAdmission.RefusedAtCap.class);
      assertThat(spool.status().refusedAtCap()).isEqualTo(2);
      assertThat(spool.status().usedBytes()).isLessThanOrEqualTo(16 << 10);
      assertThat(spool.status().pendingEvents()).isEqualTo(spooled);
      assertThat(spool.status().toJson()).contains("\"refusedAtCap\":2", "\"capBytes\":16384");
      assertThat(warnings).hasSize(1);
      assertThat(warnings.get(0).getLevel()).isEqualTo(Level.WARNING);
      assertThat(format(warnings.get(0))).contains("event=spool_full", "VARROA_SPOOL_BYTES", "refused_total=1");

      clock.advance(Duration.ofSeconds(61));
      emitter.stageStarted("run-a", "team/app", "later", "Later", "");
      assertThat(warnings).hasSize(2);
      assertThat(format(warnings.get(1))).contains("refused_total=3");

      // Acknowledging the oldest events frees whole segments, and new events are spooled again.
      List<BuildEvent> oldest = spool.nextBatch(spooled / 2, 1 << 20);
      spool.acknowledge(oldest.stream().map(RunSequence::of).map(RunSequence::toKey).toList());
      SpoolAdmission afterRoom = emitter.stageStarted("run-a", "team/app", "again", "Again", "");
      assertThat(afterRoom.spooled()).isTrue();
      // The refused events used their numbers up: the gap shows downstream.
      assertThat(((SpoolAdmission.Spooled) afterRoom).key().sequence()).isEqualTo(spooled + 4);
    } finally {
      logger.removeHandler(handler);
    }
  }

  static EventKey key(String runId, long sequence) {
    return EventKey.newBuilder().setRunId(runId).setSequence(sequence).build();
  }

  static org.assertj.core.groups.Tuple tuple(Object... values) {
    Object[] converted = values.clone();
    for (int i = 0; i < converted.length; i++) {
      if (converted[i] instanceof Integer number) {
        converted[i] = number.longValue();
      }
    }
    return org.assertj.core.groups.Tuple.tuple(converted);
  }

  private static String format(LogRecord record) {
    return new java.util.logging.SimpleFormatter().formatMessage(record);
  }

  private static Handler capture(List<LogRecord> records) {
    return new Handler() {
      @Override
      public void publish(LogRecord record) {
        if (record.getLevel().intValue() >= Level.WARNING.intValue() && record.getMessage().contains("spool_full")) {
          records.add(record);
        }
      }

      @Override
      public void flush() {
      }

      @Override
      public void close() {
      }
    };
  }
}
