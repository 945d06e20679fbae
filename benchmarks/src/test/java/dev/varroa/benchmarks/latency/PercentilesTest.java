package dev.varroa.benchmarks.latency;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PercentilesTest {

  @Test
  void p95OfTwentySamplesIsTheNineteenthAndP50TheTenth() {
    List<Duration> samples = IntStream.rangeClosed(1, 20).map(i -> 21 - i).mapToObj(Duration::ofMillis).toList();

    assertThat(Percentiles.of(samples, 0.95)).isEqualTo(Duration.ofMillis(19));
    assertThat(Percentiles.of(samples, 0.5)).isEqualTo(Duration.ofMillis(10));
  }

  @Test
  void p95OfFiveSamplesIsTheLargest() {
    List<Duration> samples = List.of(3, 9, 15, 21, 27).stream().map(s -> Duration.ofSeconds(s)).toList();

    assertThat(Percentiles.of(samples, 0.95)).isEqualTo(Duration.ofSeconds(27));
    assertThat(Percentiles.of(samples, 0)).isEqualTo(Duration.ofSeconds(3));
  }
}
