package dev.varroa.operator.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.operator.hibernation.MovableClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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
    MovableClock clock = new MovableClock();
    SeenDeliveries seen = new SeenDeliveries(clock);
    seen.seenBefore(List.of("id-1"));

    clock.advance(SeenDeliveries.WINDOW.minusSeconds(1));
    assertThat(seen.seenBefore(List.of("id-1"))).hasValue("id-1");
    clock.advance(Duration.ofSeconds(2));
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
