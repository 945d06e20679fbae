package dev.varroa.operator.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class SeenDeliveriesTest {
  private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

  @Test
  void recognisesAnyKeySeenWithinTheWindow() {
    SeenDeliveries seen = new SeenDeliveries(Clock.fixed(NOW, ZoneOffset.UTC));

    assertThat(seen.seenBefore(List.of("id-1", "body-1"))).isEmpty();
    assertThat(seen.seenBefore(List.of("id-2", "body-1"))).hasValue("body-1");
    assertThat(seen.seenBefore(List.of("id-1", "body-2"))).hasValue("id-1");
    assertThat(seen.seenBefore(List.of("id-3", "body-3"))).isEmpty();
  }

  @Test
  void forgetsADeliveryOnceTheWindowHasPassed() {
    Instant[] now = {NOW};
    Clock clock = new Clock() {
      @Override
      public Instant instant() {
        return now[0];
      }

      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(ZoneId zone) {
        return this;
      }
    };
    SeenDeliveries seen = new SeenDeliveries(clock);
    seen.seenBefore(List.of("id-1"));

    now[0] = NOW.plus(SeenDeliveries.WINDOW).minusSeconds(1);
    assertThat(seen.seenBefore(List.of("id-1"))).hasValue("id-1");
    now[0] = NOW.plus(SeenDeliveries.WINDOW).plusSeconds(1);
    assertThat(seen.seenBefore(List.of("id-1"))).isEmpty();
  }

  @Test
  void remembersAtMostItsBoundForgettingTheOldestFirst() {
    SeenDeliveries seen = new SeenDeliveries(Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofHours(1), 100);

    for (int i = 0; i < 1_000; i++) {
      seen.seenBefore(List.of("id-" + i, "body-" + i));
    }

    assertThat(seen.size()).isEqualTo(100);
    assertThat(seen.seenBefore(List.of("id-999"))).hasValue("id-999");
    assertThat(seen.seenBefore(List.of("id-0"))).isEmpty();
  }
}
