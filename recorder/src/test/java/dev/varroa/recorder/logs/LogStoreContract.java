package dev.varroa.recorder.logs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What both tiers promise; each subclass opens its store against a real server. */
abstract class LogStoreContract {

  /** A store on the test's server; the caller closes it. */
  abstract LogStore open() throws Exception;

  /** Makes every write of the run look age old, as retention would find it after that long. */
  abstract void age(LogKey key, Duration age) throws Exception;

  static LogKey newRun() {
    return new LogKey("local", "team-a", "ci", "run-" + UUID.randomUUID());
  }

  static byte[] bytes(int length, long seed) {
    byte[] data = new byte[length];
    new Random(seed).nextBytes(data);
    return data;
  }

  @Test
  void writesInChunksAndReadsBackAnyRange() throws Exception {
    LogKey key = newRun();
    byte[] log = bytes(700_000, 1);
    try (LogStore store = open()) {
      assertThat(store.extent(key)).isEqualTo(LogExtent.EMPTY);
      int[] cuts = {0, 1, 65_536, 65_537, 300_000, 700_000};
      for (int i = 0; i + 1 < cuts.length; i++) {
        LogExtent after = store.write(key, cuts[i], Arrays.copyOfRange(log, cuts[i], cuts[i + 1]), false);
        assertThat(after).isEqualTo(new LogExtent(cuts[i + 1], false));
      }
      assertThat(store.read(key, 0, 1_000_000)).isEqualTo(log);
      // Ranges inside one piece, across several, at the end, and past it.
      assertThat(store.read(key, 10, 5)).isEqualTo(Arrays.copyOfRange(log, 10, 15));
      assertThat(store.read(key, 65_000, 250_000)).isEqualTo(Arrays.copyOfRange(log, 65_000, 315_000));
      assertThat(store.read(key, 699_990, 100)).isEqualTo(Arrays.copyOfRange(log, 699_990, 700_000));
      assertThat(store.read(key, 700_000, 100)).isEmpty();
      assertThat(store.read(key, 900_000, 100)).isEmpty();
      assertThat(store.read(key, 5, 0)).isEmpty();

      assertThat(store.write(key, 700_000, new byte[0], true)).isEqualTo(new LogExtent(700_000, true));
      assertThat(store.extent(key)).isEqualTo(new LogExtent(700_000, true));
    }
  }

  @Test
  void theExtentOutlivesTheStoreAndOtherRunsAreApart() throws Exception {
    LogKey key = newRun();
    LogKey other = new LogKey(key.cluster(), key.namespace(), key.controller(), key.runId() + "-2");
    try (LogStore store = open()) {
      store.write(key, 0, bytes(1000, 2), false);
      store.write(key, 1000, bytes(24, 3), true);
      store.write(other, 0, bytes(10, 4), false);
    }
    try (LogStore reopened = open()) {
      assertThat(reopened.extent(key)).isEqualTo(new LogExtent(1024, true));
      assertThat(reopened.extent(other)).isEqualTo(new LogExtent(10, false));
      assertThat(reopened.read(other, 0, 100)).isEqualTo(bytes(10, 4));
    }
  }

  @Test
  void deleteWrittenBeforeRemovesOnlyTheOldLogsWhole() throws Exception {
    LogKey old = newRun();
    LogKey recent = newRun();
    try (LogStore store = open()) {
      store.write(old, 0, bytes(5000, 5), false);
      store.write(old, 5000, bytes(5000, 6), true);
      store.write(recent, 0, bytes(3000, 7), false);
      age(old, Duration.ofDays(40));

      assertThat(store.deleteWrittenBefore(Instant.now().minus(Duration.ofDays(30)))).isGreaterThanOrEqualTo(1);

      assertThat(store.extent(old)).isEqualTo(LogExtent.EMPTY);
      assertThat(store.read(old, 0, 100)).isEmpty();
      assertThat(store.extent(recent)).isEqualTo(new LogExtent(3000, false));
      assertThat(store.read(recent, 0, 3000)).isEqualTo(bytes(3000, 7));
      assertThat(store.deleteWrittenBefore(Instant.now().minus(Duration.ofDays(30)))).isZero();
    }
  }
}
