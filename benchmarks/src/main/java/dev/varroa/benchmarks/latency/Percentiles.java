package dev.varroa.benchmarks.latency;

import java.time.Duration;
import java.util.List;

/** Nearest-rank percentiles: the smallest sample with at least p of the samples at or below it. */
public final class Percentiles {

  private Percentiles() {
  }

  /** With 20 samples p95 is the 19th smallest; with 5 it is the largest. */
  public static Duration of(List<Duration> samples, double p) {
    if (samples.isEmpty()) {
      throw new IllegalArgumentException("no samples");
    }
    List<Duration> sorted = samples.stream().sorted().toList();
    int rank = (int) Math.ceil(p * sorted.size());
    return sorted.get(Math.max(1, rank) - 1);
  }
}
