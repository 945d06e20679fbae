package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackoffTest {

  @Test
  void capsReconnectBackoffAtTwoMinutes() {
    assertThat(Backoff.RECONNECT_BACKOFF_CAP).isEqualTo(Duration.ofSeconds(120));
    Backoff backoff = new Backoff(Backoff.RECONNECT_BACKOFF_INITIAL, Backoff.RECONNECT_BACKOFF_CAP, () -> 0.999999);
    Duration last = Duration.ZERO;
    for (int i = 0; i < 100; i++) {
      last = backoff.next();
      assertThat(last).isLessThanOrEqualTo(Duration.ofSeconds(120));
    }
    assertThat(last).isGreaterThan(Duration.ofSeconds(119));
  }

  @Test
  void doublesTheCeilingAfterEachFailure() {
    Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(2), () -> 0.999999);
    List<Long> seconds = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      seconds.add(Math.round(backoff.next().toMillis() / 1000.0));
    }
    assertThat(seconds).containsExactly(1L, 2L, 4L, 8L, 16L, 32L, 64L, 120L, 120L);
  }

  @Test
  void keepsJitterWithinHalfToFullCeiling() {
    Backoff lowest = new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(2), () -> 0.0);
    Backoff highest = new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(2), () -> 0.999999);
    for (int i = 0; i < 12; i++) {
      long ceiling = Math.min(1000L << i, 120_000L);
      assertThat(lowest.next().toMillis()).isEqualTo(ceiling / 2);
      assertThat(highest.next().toMillis()).isBetween(ceiling - 1, ceiling);
    }
  }

  @Test
  void randomJitterStaysInBoundsAndVaries() {
    Backoff backoff = new Backoff();
    List<Duration> waits = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      backoff.reset();
      for (int n = 0; n < 20; n++) {
        backoff.next();
      }
      waits.add(backoff.next());
    }
    assertThat(waits).allSatisfy(w -> assertThat(w).isBetween(Duration.ofSeconds(60), Duration.ofSeconds(120)));
    assertThat(waits.stream().distinct().count()).isGreaterThan(1);
  }

  @Test
  void startsAgainFromTheInitialWaitAfterReset() {
    Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(2), () -> 0.999999);
    for (int i = 0; i < 10; i++) {
      backoff.next();
    }
    backoff.reset();
    assertThat(backoff.next()).isLessThanOrEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void refusesAnInitialWaitAboveTheCap() {
    assertThatThrownBy(() -> new Backoff(Duration.ofMinutes(3), Duration.ofMinutes(2), () -> 0.5))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
