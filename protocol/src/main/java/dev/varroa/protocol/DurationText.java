package dev.varroa.protocol;

import java.math.BigDecimal;
import java.time.Duration;

/** How a wait reads in an error text or a log line, the same in every component: "10 s", "4.5 s", "0.2 s". */
public final class DurationText {

  private DurationText() {
  }

  /** Seconds to the millisecond, without trailing zeros, and the unit. */
  public static String seconds(Duration duration) {
    return BigDecimal.valueOf(duration.toMillis(), 3).stripTrailingZeros().toPlainString() + " s";
  }
}
