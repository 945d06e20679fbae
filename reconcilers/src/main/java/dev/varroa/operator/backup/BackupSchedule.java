package dev.varroa.operator.backup;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** A backup schedule: five-field Unix cron in UTC, or one of the usual @ aliases. Pure. */
public final class BackupSchedule {
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

  private final String expression;
  private final ExecutionTime times;

  private BackupSchedule(String expression, ExecutionTime times) {
    this.expression = expression;
    this.times = times;
  }

  /** @throws InvalidSchedule naming what is wrong with the expression */
  public static BackupSchedule parse(String expression) {
    String trimmed = expression == null ? "" : expression.trim();
    String fields = ALIASES.getOrDefault(trimmed.toLowerCase(Locale.ROOT), trimmed);
    if (fields.isEmpty()) {
      throw new InvalidSchedule("the schedule is empty");
    }
    try {
      Cron cron = PARSER.parse(fields).validate();
      return new BackupSchedule(trimmed, ExecutionTime.forCron(cron));
    } catch (IllegalArgumentException e) {
      throw new InvalidSchedule(e.getMessage());
    }
  }

  /** The first time strictly after {@code after}; empty when the expression never fires again. */
  public Optional<Instant> nextAfter(Instant after) {
    return times.nextExecution(after.atZone(ZoneOffset.UTC)).map(t -> t.toInstant());
  }

  @Override
  public String toString() {
    return expression;
  }

  /** The expression is not a schedule; the message says why. */
  public static final class InvalidSchedule extends IllegalArgumentException {
    InvalidSchedule(String why) {
      super(why);
    }
  }
}
