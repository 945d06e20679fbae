package dev.varroa.operator.cron;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class CronScheduleTest {
  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
  private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

  @Test
  void readsTheExpressionOnTheWallClockOfTheZone() {
    CronSchedule nightly = CronSchedule.parse("30 2 * * *");
    // 02:30 in Berlin in winter is 01:30 UTC, in summer 00:30 UTC
    assertThat(nightly.nextAfter(Instant.parse("2026-01-10T12:00:00Z"), BERLIN))
        .contains(Instant.parse("2026-01-11T01:30:00Z"));
    assertThat(nightly.nextAfter(Instant.parse("2026-07-10T12:00:00Z"), BERLIN))
        .contains(Instant.parse("2026-07-11T00:30:00Z"));
    assertThat(nightly.nextAfter(Instant.parse("2026-07-10T12:00:00Z"), ZoneOffset.UTC))
        .contains(Instant.parse("2026-07-11T02:30:00Z"));
  }

  @Test
  void aTimeTheSpringForwardSkipsFiresAtTheFirstInstantAfterTheGap() {
    CronSchedule nightly = CronSchedule.parse("30 2 * * *");
    // Berlin, 29 March 2026: 02:00 CET becomes 03:00 CEST at 01:00 UTC; 02:30 does not exist that night
    assertThat(nightly.nextAfter(Instant.parse("2026-03-28T12:00:00Z"), BERLIN))
        .contains(Instant.parse("2026-03-29T01:00:00Z"));
    assertThat(nightly.nextAfter(Instant.parse("2026-03-29T01:00:00Z"), BERLIN))
        .contains(Instant.parse("2026-03-30T00:30:00Z"));
  }

  @Test
  void severalTimesInOneGapFireOnceAtItsEnd() {
    CronSchedule everyQuarter = CronSchedule.parse("*/15 * * * *");
    // 02:00, 02:15, 02:30, 02:45 and 03:00 all map to 03:00 CEST: one firing, then 03:15
    assertThat(everyQuarter.nextAfter(Instant.parse("2026-03-29T00:50:00Z"), BERLIN))
        .contains(Instant.parse("2026-03-29T01:00:00Z"));
    assertThat(everyQuarter.nextAfter(Instant.parse("2026-03-29T01:00:00Z"), BERLIN))
        .contains(Instant.parse("2026-03-29T01:15:00Z"));
  }

  @Test
  void aTimeTheAutumnFallBackRepeatsFiresOnceAtItsFirstOccurrence() {
    CronSchedule nightly = CronSchedule.parse("30 2 * * *");
    // Berlin, 25 October 2026: 03:00 CEST becomes 02:00 CET at 01:00 UTC; 02:30 happens at 00:30 and 01:30 UTC
    assertThat(nightly.nextAfter(Instant.parse("2026-10-24T12:00:00Z"), BERLIN))
        .contains(Instant.parse("2026-10-25T00:30:00Z"));
    assertThat(nightly.nextAfter(Instant.parse("2026-10-25T00:30:00Z"), BERLIN))
        .contains(Instant.parse("2026-10-26T01:30:00Z"));
    // looked at from inside the repeated hour, the second 02:30 is not a firing either
    assertThat(nightly.nextAfter(Instant.parse("2026-10-25T01:10:00Z"), BERLIN))
        .contains(Instant.parse("2026-10-26T01:30:00Z"));
  }

  @Test
  void anHourlyScheduleFiresOnceInTheRepeatedHour() {
    CronSchedule hourly = CronSchedule.parse("0 * * * *");
    // New York, 1 November 2026: 02:00 EDT becomes 01:00 EST at 06:00 UTC; 01:00 local fires at 05:00 UTC only
    assertThat(hourly.nextAfter(Instant.parse("2026-11-01T04:30:00Z"), NEW_YORK))
        .contains(Instant.parse("2026-11-01T05:00:00Z"));
    assertThat(hourly.nextAfter(Instant.parse("2026-11-01T05:00:00Z"), NEW_YORK))
        .as("02:00 EST is next; 01:00 EST (06:00 UTC) is the repeat").contains(Instant.parse("2026-11-01T07:00:00Z"));
  }

  @Test
  void theLatestFiringAtOrBeforeAnInstant() {
    CronSchedule nightly = CronSchedule.parse("30 2 * * *");
    assertThat(nightly.latestAtOrBefore(Instant.parse("2026-10-25T00:30:00Z"), BERLIN))
        .contains(Instant.parse("2026-10-25T00:30:00Z"));
    // inside the repeated hour, after its second 02:30: the first one was the last firing
    assertThat(nightly.latestAtOrBefore(Instant.parse("2026-10-25T01:45:00Z"), BERLIN))
        .contains(Instant.parse("2026-10-25T00:30:00Z"));
    assertThat(nightly.latestAtOrBefore(Instant.parse("2026-03-29T01:05:00Z"), BERLIN))
        .contains(Instant.parse("2026-03-29T01:00:00Z"));
    assertThat(nightly.latestAtOrBefore(Instant.parse("2026-03-29T00:59:00Z"), BERLIN))
        .contains(Instant.parse("2026-03-28T01:30:00Z"));
    CronSchedule everyMinute = CronSchedule.parse("* * * * *");
    assertThat(everyMinute.latestAtOrBefore(Instant.parse("2026-10-25T01:10:30Z"), BERLIN))
        .as("every minute of the repeated hour fired in its first pass; the last was 02:59 CEST")
        .contains(Instant.parse("2026-10-25T00:59:00Z"));
  }

  @Test
  void acceptsTheAliasesAndRefusesWhatIsNotASchedule() {
    assertThat(CronSchedule.parse("@daily").nextAfter(Instant.parse("2026-07-10T12:00:00Z"), BERLIN))
        .contains(Instant.parse("2026-07-10T22:00:00Z"));
    Instant saturday = Instant.parse("2026-06-06T12:00:00Z");
    assertThat(CronSchedule.parse("0 4 * * 7").nextAfter(saturday, BERLIN))
        .as("7 is Sunday, as 0 is").isEqualTo(CronSchedule.parse("0 4 * * 0").nextAfter(saturday, BERLIN))
        .contains(Instant.parse("2026-06-07T02:00:00Z"));
    assertThatThrownBy(() -> CronSchedule.parse("@fortnightly")).isInstanceOf(CronSchedule.InvalidCron.class)
        .hasMessageContaining("@daily");
    assertThatThrownBy(() -> CronSchedule.parse("0 2 * *")).isInstanceOf(CronSchedule.InvalidCron.class);
    assertThatThrownBy(() -> CronSchedule.parse(null)).hasMessageContaining("empty");
  }
}
