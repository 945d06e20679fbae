package dev.varroa.recorder.retention;

import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How long the record store keeps each kind of record, and how often the sweep runs. An age of
 * {@link Duration#ZERO} keeps that kind forever. Production reads them from the environment
 * ({@link #fromEnv(Map)}); the chart sets them from {@code recordStore.retention.*}.
 *
 * @param runs runs with their run_events, and the ledger's claims (VARROA_RETENTION_RUNS)
 * @param stages stages (VARROA_RETENTION_STAGES)
 * @param tests test summaries (VARROA_RETENTION_TESTS)
 * @param activity the activity table (VARROA_RETENTION_ACTIVITY)
 * @param logs console logs in the blob store (VARROA_RETENTION_LOGS)
 * @param interval time between two sweeps (VARROA_RETENTION_INTERVAL); never zero
 */
public record RetentionRules(Duration runs, Duration stages, Duration tests, Duration activity, Duration logs,
    Duration interval) {

  public static final String ENV_RUNS = "VARROA_RETENTION_RUNS";
  public static final String ENV_STAGES = "VARROA_RETENTION_STAGES";
  public static final String ENV_TESTS = "VARROA_RETENTION_TESTS";
  public static final String ENV_ACTIVITY = "VARROA_RETENTION_ACTIVITY";
  public static final String ENV_LOGS = "VARROA_RETENTION_LOGS";
  public static final String ENV_INTERVAL = "VARROA_RETENTION_INTERVAL";

  /** Half a year of build history: two release cycles of most teams, and the usual audit look-back. */
  public static final Duration DEFAULT_RUNS = Duration.ofDays(180);
  public static final Duration DEFAULT_STAGES = Duration.ofDays(180);
  public static final Duration DEFAULT_TESTS = Duration.ofDays(180);
  /** A quarter of who-did-what: long enough to explain an incident, short enough to stay small. */
  public static final Duration DEFAULT_ACTIVITY = Duration.ofDays(90);
  /** Console logs are the bulk of the bytes; a month covers debugging a failure and its reruns. */
  public static final Duration DEFAULT_LOGS = Duration.ofDays(30);
  public static final Duration DEFAULT_INTERVAL = Duration.ofHours(1);

  /** 0 keeps forever; otherwise a whole number of days, hours or minutes. */
  private static final Pattern AGE = Pattern.compile("(\\d{1,9})([dhm])");

  public RetentionRules {
    requireAge(runs, ENV_RUNS);
    requireAge(stages, ENV_STAGES);
    requireAge(tests, ENV_TESTS);
    requireAge(activity, ENV_ACTIVITY);
    requireAge(logs, ENV_LOGS);
    if (interval == null || interval.isZero() || interval.isNegative()) {
      throw new IllegalArgumentException(ENV_INTERVAL + " must be a positive time such as 1h, 30m or 1d (default 1h), "
          + "got " + interval);
    }
  }

  public static RetentionRules defaults() {
    return new RetentionRules(DEFAULT_RUNS, DEFAULT_STAGES, DEFAULT_TESTS, DEFAULT_ACTIVITY, DEFAULT_LOGS,
        DEFAULT_INTERVAL);
  }

  /** Reads the process environment; see {@link #fromEnv(Map)}. */
  public static RetentionRules fromEnv() {
    return fromEnv(System.getenv());
  }

  /** Every variable is optional; an unset or empty one takes its default. */
  public static RetentionRules fromEnv(Map<String, String> env) {
    Duration interval = age(env, ENV_INTERVAL, DEFAULT_INTERVAL);
    if (interval.isZero()) {
      throw new IllegalArgumentException(ENV_INTERVAL + "=0 is not an interval: give how often the sweep runs, "
          + "e.g. 1h (the default), 30m or 1d; to keep records forever set the ages (e.g. " + ENV_RUNS + "=0) instead");
    }
    return new RetentionRules(age(env, ENV_RUNS, DEFAULT_RUNS), age(env, ENV_STAGES, DEFAULT_STAGES),
        age(env, ENV_TESTS, DEFAULT_TESTS), age(env, ENV_ACTIVITY, DEFAULT_ACTIVITY), age(env, ENV_LOGS, DEFAULT_LOGS),
        interval);
  }

  /** Parses {@code <n>d}, {@code <n>h}, {@code <n>m} or {@code 0}; the error names the variable and the fix. */
  static Duration age(Map<String, String> env, String name, Duration fallback) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    String text = value.strip();
    if (text.equals("0")) {
      return Duration.ZERO;
    }
    Matcher matcher = AGE.matcher(text);
    if (!matcher.matches()) {
      throw new IllegalArgumentException(name + "='" + text + "' is not a retention time: use a whole number of "
          + "days, hours or minutes such as " + describe(fallback) + ", 12h or 45m (no spaces, one unit), "
          + "or 0 to keep forever; unset it for the default " + describe(fallback));
    }
    long amount = Long.parseLong(matcher.group(1));
    return switch (matcher.group(2)) {
      case "d" -> Duration.ofDays(amount);
      case "h" -> Duration.ofHours(amount);
      default -> Duration.ofMinutes(amount);
    };
  }

  /** As the variables spell it: 180d, 1h, 45m, or 0 for forever. */
  public static String describe(Duration age) {
    if (age.isZero()) {
      return "0";
    }
    if (age.toMinutes() % (24 * 60) == 0) {
      return age.toDays() + "d";
    }
    if (age.toMinutes() % 60 == 0) {
      return age.toHours() + "h";
    }
    return age.toMinutes() + "m";
  }

  private static void requireAge(Duration age, String name) {
    if (age == null || age.isNegative()) {
      throw new IllegalArgumentException(name + " must be 0 (keep forever) or a positive time such as 180d, got " + age);
    }
  }

  @Override
  public String toString() {
    return "runs=" + describe(runs) + " stages=" + describe(stages) + " tests=" + describe(tests) + " activity="
        + describe(activity) + " logs=" + describe(logs) + " interval=" + describe(interval);
  }
}
