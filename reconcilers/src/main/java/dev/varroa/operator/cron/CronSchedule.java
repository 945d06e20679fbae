package dev.varroa.operator.cron;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Five-field Unix cron, or one of the usual @ aliases, read on the wall clock of a time zone. Pure.
 *
 * <p>Daylight-saving rules: a wall time a spring-forward skips fires at the first instant after the gap (the
 * transition itself); a wall time an autumn fall-back repeats fires once, at its first occurrence.
 */
public final class CronSchedule {
  private static final CronParser PARSER = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
  /** The aliases cron(8) accepts, as the five fields they stand for. */
  private static final Map<String, String> ALIASES = Map.of(
      "@hourly", "0 * * * *",
      "@daily", "0 0 * * *",
      "@midnight", "0 0 * * *",
      "@weekly", "0 0 * * 0",
      "@monthly", "0 0 1 * *",
      "@yearly", "0 0 1 1 *",
      "@annually", "0 0 1 1 *");
  /** Wall times looked at before giving up: a repeated hour of a per-minute schedule needs 60. */
  private static final int MAX_STEPS = 2000;
  /** Larger than any daylight-saving shift in the time-zone database (two hours, once). */
  private static final Duration LONGEST_SHIFT = Duration.ofHours(3);

  private final String expression;
  private final ExecutionTime times;

  private CronSchedule(String expression, ExecutionTime times) {
    this.expression = expression;
    this.times = times;
  }

  /** @throws InvalidCron naming what is wrong with the expression */
  public static CronSchedule parse(String expression) {
    String trimmed = expression == null ? "" : expression.trim();
    String fields = ALIASES.getOrDefault(trimmed.toLowerCase(Locale.ROOT), trimmed);
    if (fields.isEmpty()) {
      throw new InvalidCron("the schedule is empty");
    }
    if (fields.startsWith("@")) {
      throw new InvalidCron(fields + " is not one of " + String.join(", ", ALIASES.keySet().stream().sorted().toList()));
    }
    try {
      Cron cron = PARSER.parse(fields).validate();
      return new CronSchedule(trimmed, ExecutionTime.forCron(cron));
    } catch (IllegalArgumentException e) {
      throw new InvalidCron(e.getMessage());
    }
  }

  /** The first firing strictly after {@code after}; empty when the expression never fires again. */
  public Optional<Instant> nextAfter(Instant after, ZoneId zone) {
    // cron-utils walks the wall clock as if it were UTC, so it never sees a gap or an overlap; the mapping back to
    // instants is ours, and it never goes backwards, so the first mapped firing after `after` is the next one
    ZonedDateTime cursor = wall(after, zone);
    for (int step = 0; step < MAX_STEPS; step++) {
      Optional<ZonedDateTime> match = times.nextExecution(cursor);
      if (match.isEmpty()) {
        return Optional.empty();
      }
      Instant at = firstInstantOf(match.get().toLocalDateTime(), zone);
      if (at.isAfter(after)) {
        return Optional.of(at);
      }
      cursor = match.get();
    }
    return Optional.empty();
  }

  /** The last firing at or before {@code at}; empty when there is none. */
  public Optional<Instant> latestAtOrBefore(Instant at, ZoneId zone) {
    // a wall time up to one shift later can map to an instant before `at` (the repeated hour), so start there
    ZonedDateTime cursor = wall(at, zone).plus(LONGEST_SHIFT);
    for (int step = 0; step < MAX_STEPS; step++) {
      Optional<ZonedDateTime> match = times.lastExecution(cursor);
      if (match.isEmpty()) {
        return Optional.empty();
      }
      Instant fired = firstInstantOf(match.get().toLocalDateTime(), zone);
      if (!fired.isAfter(at)) {
        return Optional.of(fired);
      }
      cursor = match.get();
    }
    return Optional.empty();
  }

  /** The instant a wall time fires at: its first occurrence, or the end of the gap that skipped it. */
  static Instant firstInstantOf(LocalDateTime wall, ZoneId zone) {
    ZoneRules rules = zone.getRules();
    List<ZoneOffset> offsets = rules.getValidOffsets(wall);
    if (offsets.isEmpty()) {
      ZoneOffsetTransition gap = rules.getTransition(wall);
      return gap.getInstant();
    }
    return offsets.stream().map(offset -> wall.toInstant(offset)).min(Instant::compareTo).orElseThrow();
  }

  private static ZonedDateTime wall(Instant instant, ZoneId zone) {
    return LocalDateTime.ofInstant(instant, zone).atZone(ZoneOffset.UTC);
  }

  @Override
  public String toString() {
    return expression;
  }

  /** The expression is not a schedule; the message says why. */
  public static final class InvalidCron extends IllegalArgumentException {
    InvalidCron(String why) {
      super(why);
    }
  }
}
