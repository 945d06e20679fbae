package dev.varroa.operator.backup;

import dev.varroa.operator.cron.CronSchedule;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;

/** A backup schedule: five-field Unix cron in UTC, or one of the usual @ aliases. Pure. */
public final class BackupSchedule {
  private final CronSchedule cron;

  private BackupSchedule(CronSchedule cron) {
    this.cron = cron;
  }

  /** @throws InvalidSchedule naming what is wrong with the expression */
  public static BackupSchedule parse(String expression) {
    try {
      return new BackupSchedule(CronSchedule.parse(expression));
    } catch (CronSchedule.InvalidCron e) {
      throw new InvalidSchedule(e.getMessage());
    }
  }

  /** The first time strictly after {@code after}; empty when the expression never fires again. */
  public Optional<Instant> nextAfter(Instant after) {
    return cron.nextAfter(after, ZoneOffset.UTC);
  }

  @Override
  public String toString() {
    return cron.toString();
  }

  /** The expression is not a schedule; the message says why. */
  public static final class InvalidSchedule extends IllegalArgumentException {
    InvalidSchedule(String why) {
      super(why);
    }
  }
}
