package dev.varroa.operator.actions;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;

/**
 * How long a pipeline run's RunJob may wait for its cell (docs/actions.md, "Run a pipeline"), read once from the
 * operator's environment in its main.
 *
 * @param deadline the RunJob command's deadline after it is queued: a parked cell's wake and Jenkins' start must fit
 *     in it ({@value #ENV_DEADLINE}, default {@link #DEFAULT_DEADLINE})
 */
public record PipelineRunSettings(Duration deadline) {
  public static final String ENV_DEADLINE = "VARROA_PIPELINE_RUN_DEADLINE";
  /** "deadline 15 minutes (the wake and Jenkins' start)". */
  public static final Duration DEFAULT_DEADLINE = Duration.ofMinutes(15);

  public PipelineRunSettings {
    if (deadline.isZero() || deadline.isNegative()) {
      throw new IllegalArgumentException("a pipeline run's deadline must be longer than zero, not " + deadline);
    }
  }

  public static PipelineRunSettings defaults() {
    return new PipelineRunSettings(DEFAULT_DEADLINE);
  }

  /** Whole seconds ({@code 900}) or ISO-8601 ({@code PT15M}); unset or blank gives the default. */
  public static PipelineRunSettings fromEnv(Map<String, String> env) {
    String value = env.get(ENV_DEADLINE);
    if (value == null || value.isBlank()) {
      return defaults();
    }
    String text = value.strip();
    Duration parsed = null;
    try {
      if (text.matches("[0-9]{1,9}")) {
        parsed = Duration.ofSeconds(Long.parseLong(text));
      } else if (text.startsWith("P") || text.startsWith("p")) {
        parsed = Duration.parse(text.toUpperCase(Locale.ROOT));
      }
    } catch (DateTimeParseException e) {
      parsed = null;
    }
    if (parsed == null || parsed.isZero() || parsed.isNegative()) {
      throw new IllegalArgumentException(ENV_DEADLINE + "='" + value + "' is not a duration longer than zero: give"
          + " seconds (e.g. 900) or ISO-8601 (e.g. PT15M); unset it for the default of 15 minutes");
    }
    return new PipelineRunSettings(parsed);
  }

  /** The deadline as people read it in a message: "15 min", "90 s". */
  public String deadlineText() {
    return readable(deadline);
  }

  static String readable(Duration duration) {
    return duration.toSecondsPart() == 0 && duration.toMillisPart() == 0 && duration.toMinutes() > 0
        ? duration.toMinutes() + " min" : Math.max(1, (duration.toMillis() + 999) / 1000) + " s";
  }
}
