package dev.varroa.benchmarks.bundle;

import java.util.Arrays;
import java.util.Locale;

/** Medians and minimums of measured values, and the {@code figure: NAME VALUE UNIT} lines the benchmark ends with. */
public final class Samples {
  private Samples() {}

  public static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  public static double min(double[] values) {
    return Arrays.stream(values).min().orElse(Double.NaN);
  }

  /** One figure line for a count. */
  public static String figure(String name, long count, String unit) {
    return "figure: " + name + " " + count + " " + unit;
  }

  /** One figure line; whole numbers above 100 lose their decimals, which are noise at that size. */
  public static String figure(String name, double value, String unit) {
    String shown = Math.abs(value) >= 100 ? String.format(Locale.ROOT, "%.0f", value)
        : String.format(Locale.ROOT, "%.1f", value);
    return "figure: " + name + " " + shown + " " + unit;
  }
}
