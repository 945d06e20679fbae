package dev.varroa.operator.brood.schedule;

import dev.varroa.api.v1alpha1.BroodSchedule;
import dev.varroa.operator.cron.CronSchedule;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;

/** When a BroodSchedule fires: its cron expression on the wall clock of its time zone. Pure. */
public record ScheduleTimes(CronSchedule cron, ZoneId zone) {
  /** spec.timeZone omitted, as the field doc says. */
  public static final ZoneId DEFAULT_TIME_ZONE = ZoneOffset.UTC;

  /** @throws InvalidScheduleSpec naming the object, the field and the fix */
  public static ScheduleTimes of(BroodSchedule schedule) {
    String object = "BroodSchedule " + schedule.getMetadata().getNamespace() + "/" + schedule.getMetadata().getName();
    String expression = schedule.getSpec() == null ? null : schedule.getSpec().schedule;
    CronSchedule cron;
    try {
      cron = CronSchedule.parse(expression);
    } catch (CronSchedule.InvalidCron e) {
      throw new InvalidScheduleSpec("InvalidSchedule", object + ": spec.schedule \"" + expression + "\" is not a"
          + " schedule (" + e.getMessage() + "); fix: five cron fields (minute hour day-of-month month day-of-week),"
          + " e.g. \"0 2 * * *\", or one of @hourly, @daily, @weekly, @monthly, @yearly");
    }
    String zoneName = schedule.getSpec().timeZone;
    ZoneId zone = DEFAULT_TIME_ZONE;
    if (zoneName != null && !zoneName.isBlank()) {
      if (!ZoneId.getAvailableZoneIds().contains(zoneName.strip()) && !"UTC".equals(zoneName.strip())) {
        throw new InvalidScheduleSpec("InvalidTimeZone", object + ": spec.timeZone \"" + zoneName + "\" is not an"
            + " IANA time zone; fix: a name of the time-zone database such as Europe/Berlin or America/New_York, or"
            + " omit the field for UTC");
      }
      zone = ZoneId.of(zoneName.strip());
    }
    ScheduleTimes times = new ScheduleTimes(cron, zone);
    if (times.cron.nextAfter(Instant.EPOCH, zone).isEmpty()) {
      throw new InvalidScheduleSpec("InvalidSchedule", object + ": spec.schedule \"" + expression + "\" names no"
          + " date that exists (e.g. the 30th of February); fix: a day-of-month the month has");
    }
    return times;
  }

  /** The first firing strictly after {@code after}. */
  public Optional<Instant> nextAfter(Instant after) {
    return cron.nextAfter(after, zone);
  }

  /**
   * The run due at {@code now}: the latest firing from {@code earliest} (inclusive) to {@code now}; only the latest,
   * so an operator that was away starts one run, not one per time it missed.
   */
  public Optional<Instant> due(Instant earliest, Instant now) {
    return cron.latestAtOrBefore(now, zone).filter(at -> !at.isBefore(earliest));
  }

  /** The schedule cannot be read; the message names the object, the field and the fix. */
  public static final class InvalidScheduleSpec extends IllegalArgumentException {
    private final String reason;

    public InvalidScheduleSpec(String reason, String message) {
      super(message);
      this.reason = reason;
    }

    /** The condition reason: InvalidSchedule, InvalidTimeZone or NameTooLong. */
    public String reason() {
      return reason;
    }
  }
}
