package dev.varroa.recorder.logs;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.varroa.protocol.builds.v1.LogChunk;
import dev.varroa.protocol.builds.v1.LogChunkAck;
import dev.varroa.protocol.builds.v1.LogChunkAck.Result;
import dev.varroa.protocol.builds.v1.LogChunkBatch;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class LogChunkAppenderIT {

  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

  static LogStore store;

  @BeforeAll
  static void open() {
    PostgresLogStoreIT.migrate(POSTGRES.server());
    store = LogStores.open(PostgresLogStoreIT.settings(POSTGRES.server())).orElseThrow();
  }

  @AfterAll
  static void close() {
    store.close();
  }

  record Stored(long from, long through) {
  }

  static LogChunk chunk(LogKey key, byte[] log, int from, int to, boolean last) {
    return LogChunk.newBuilder().setRunId(key.runId()).setJob("folder/app").setOffset(from)
        .setData(ByteString.copyFrom(log, from, to - from)).setLast(last).build();
  }

  @Test
  void aResentChunkIsADuplicateAndNoByteIsStoredTwice() throws Exception {
    LogKey key = LogStoreContract.newRun();
    byte[] log = LogStoreContract.bytes(3000, 11);
    List<Stored> stored = new ArrayList<>();
    LogChunkAppender.StoredListener onStored = (k, chunk, from, after) -> stored.add(new Stored(from,
        after.storedThrough()));
    LogChunkAppender appender = new LogChunkAppender(Optional.of(store), 16);

    assertThat(appender.append(key, chunk(key, log, 0, 1000, false), onStored).getResult())
        .isEqualTo(Result.STORED);
    LogChunkAck again = appender.append(key, chunk(key, log, 0, 1000, false), onStored);
    assertThat(again.getResult()).isEqualTo(Result.DUPLICATE);
    assertThat(again.getStoredThrough()).isEqualTo(1000);
    // A fresh appender (a restarted gateway) knows the extent from the store only.
    LogChunkAck afterRestart = new LogChunkAppender(Optional.of(store)).append(key, chunk(key, log, 0, 1000, false));
    assertThat(afterRestart.getResult()).isEqualTo(Result.DUPLICATE);

    assertThat(store.read(key, 0, 10_000)).isEqualTo(Arrays.copyOfRange(log, 0, 1000));
    assertThat(stored).containsExactly(new Stored(0, 1000));
  }

  @Test
  void anOverlappingChunkWritesOnlyItsTail() throws Exception {
    LogKey key = LogStoreContract.newRun();
    byte[] log = LogStoreContract.bytes(3000, 12);
    List<Stored> stored = new ArrayList<>();
    LogChunkAppender.StoredListener onStored = (k, chunk, from, after) -> stored.add(new Stored(from,
        after.storedThrough()));
    LogChunkAppender appender = new LogChunkAppender(Optional.of(store), 16);
    appender.append(key, chunk(key, log, 0, 1000, false), onStored);

    LogChunkAck overlap = appender.append(key, chunk(key, log, 600, 1800, false), onStored);

    assertThat(overlap.getResult()).isEqualTo(Result.STORED);
    assertThat(overlap.getOffset()).isEqualTo(600);
    assertThat(overlap.getStoredThrough()).isEqualTo(1800);
    assertThat(stored).containsExactly(new Stored(0, 1000), new Stored(1000, 1800));
    assertThat(store.read(key, 0, 10_000)).isEqualTo(Arrays.copyOfRange(log, 0, 1800));
  }

  @Test
  void aChunkPastTheStoredEndIsAGapAndNothingIsWritten() throws Exception {
    LogKey key = LogStoreContract.newRun();
    byte[] log = LogStoreContract.bytes(3000, 13);
    LogChunkAppender appender = new LogChunkAppender(Optional.of(store));
    appender.append(key, chunk(key, log, 0, 1000, false));

    LogChunkAck gap = appender.append(key, chunk(key, log, 1500, 2000, false));

    assertThat(gap.getResult()).isEqualTo(Result.GAP);
    assertThat(gap.getStoredThrough()).isEqualTo(1000);
    assertThat(gap.getMessage()).contains("send from 1000");
    assertThat(store.extent(key)).isEqualTo(new LogExtent(1000, false));
    // The sender resends from stored_through, and the log goes on.
    assertThat(appender.append(key, chunk(key, log, 1000, 2000, false)).getResult()).isEqualTo(Result.STORED);
  }

  @Test
  void aLastChunkCompletesTheLogWhichThenRefusesAnythingPastItsEnd() throws Exception {
    LogKey key = LogStoreContract.newRun();
    byte[] log = LogStoreContract.bytes(3000, 14);
    LogChunkAppender appender = new LogChunkAppender(Optional.of(store));
    appender.append(key, chunk(key, log, 0, 2000, false));

    LogChunkAck last = appender.append(key, chunk(key, log, 2000, 3000, true));
    assertThat(last.getResult()).isEqualTo(Result.STORED);
    assertThat(last.getComplete()).isTrue();
    assertThat(last.getStoredThrough()).isEqualTo(3000);

    LogChunkAck resentLast = appender.append(key, chunk(key, log, 2000, 3000, true));
    assertThat(resentLast.getResult()).isEqualTo(Result.DUPLICATE);
    assertThat(resentLast.getComplete()).isTrue();
    LogChunkAck more = appender.append(key, LogChunk.newBuilder().setRunId(key.runId()).setOffset(3000)
        .setData(ByteString.copyFromUtf8("late line\n")).build());
    assertThat(more.getResult()).isEqualTo(Result.GAP);
    assertThat(more.getComplete()).isTrue();
    assertThat(more.getMessage()).contains("complete at 3000 bytes");
    assertThat(store.read(key, 0, 10_000)).isEqualTo(log);
  }

  @Test
  void anEmptyLastChunkAtTheEndCompletesTheLog() throws Exception {
    LogKey key = LogStoreContract.newRun();
    byte[] log = LogStoreContract.bytes(500, 15);
    LogChunkAppender appender = new LogChunkAppender(Optional.of(store));
    appender.append(key, chunk(key, log, 0, 500, false));

    LogChunkAck last = appender.append(key, chunk(key, log, 500, 500, true));

    assertThat(last.getResult()).isEqualTo(Result.STORED);
    assertThat(last.getComplete()).isTrue();
    assertThat(store.extent(key)).isEqualTo(new LogExtent(500, true));
  }

  @Test
  void withoutAStoreEveryChunkIsNotStored() {
    LogChunkAppender appender = new LogChunkAppender(Optional.empty());
    var acks = appender.append("local", "team-a", "ci", LogChunkBatch.newBuilder()
        .addChunks(LogChunk.newBuilder().setRunId("r1").setOffset(0).setData(ByteString.copyFromUtf8("x")))
        .addChunks(LogChunk.newBuilder().setRunId("r2").setOffset(7)).build(), (key, chunk, from, after) -> { });
    assertThat(acks.getAcksList()).extracting(LogChunkAck::getResult)
        .containsExactly(Result.NOT_STORED, Result.NOT_STORED);
    assertThat(acks.getAcksList()).extracting(LogChunkAck::getRunId).containsExactly("r1", "r2");
  }

  @Test
  void aStoreFailureIsUnavailableAndTheNextChunkReadsTheStoreAgain() throws Exception {
    LogKey key = LogStoreContract.newRun();
    byte[] log = LogStoreContract.bytes(2000, 16);
    LogChunkAppender appender = new LogChunkAppender(Optional.of(store));
    appender.append(key, chunk(key, log, 0, 1000, false));
    // Another writer (the stream's previous gateway) moved the log on behind this appender's cache.
    store.write(key, 1000, Arrays.copyOfRange(log, 1000, 1500), false);

    LogChunkAck stale = appender.append(key, chunk(key, log, 1000, 1500, false));
    assertThat(stale.getResult()).isEqualTo(Result.UNAVAILABLE);
    assertThat(stale.getMessage()).contains("another writer appended");

    LogChunkAck retried = appender.append(key, chunk(key, log, 1000, 1500, false));
    assertThat(retried.getResult()).isEqualTo(Result.DUPLICATE);
    assertThat(retried.getStoredThrough()).isEqualTo(1500);
  }

  @Test
  void concurrentSendersOfOneRunStoreEachByteOnceAndTheCacheStaysBounded() throws Exception {
    LogKey key = LogStoreContract.newRun();
    byte[] log = LogStoreContract.bytes(64 * 1024, 17);
    LogChunkAppender appender = new LogChunkAppender(Optional.of(store), 4);
    ExecutorService senders = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int sender = 0; sender < 4; sender++) {
        done.add(senders.submit(() -> {
          for (int from = 0; from < log.length; from += 4096) {
            appender.append(key, chunk(key, log, from, Math.min(log.length, from + 8192), false));
          }
        }));
      }
      for (Future<?> each : done) {
        each.get();
      }
    } finally {
      senders.shutdownNow();
    }
    for (int i = 0; i < 10; i++) {
      LogKey other = LogStoreContract.newRun();
      appender.append(other, chunk(other, log, 0, 10, false));
    }
    assertThat(store.read(key, 0, log.length + 10)).isEqualTo(log);
    assertThat(appender.cachedRuns()).isEqualTo(4);
    assertThat(appender.lockedRuns()).isZero();
  }
}
