package dev.varroa.operator.brood.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.api.v1alpha1.BroodSchedule;
import dev.varroa.api.v1alpha1.BroodScheduleSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ScheduleTimesTest {
  @Test
  void omittedTimeZoneIsUtc() {
    assertThat(ScheduleTimes.of(schedule("0 2 * * *", null)).zone()).isEqualTo(ZoneOffset.UTC);
  }

  @Test
  void dueIsOnlyTheLatestMissedFiring() {
    ScheduleTimes hourly = ScheduleTimes.of(schedule("0 * * * *", "UTC"));
    Instant earliest = Instant.parse("2026-06-01T10:00:00Z");
    assertThat(hourly.due(earliest, Instant.parse("2026-06-01T09:59:59Z"))).isEmpty();
    assertThat(hourly.due(earliest, Instant.parse("2026-06-01T10:00:00Z"))).contains(earliest);
    assertThat(hourly.due(earliest, Instant.parse("2026-06-01T13:20:00Z")))
        .as("three runs missed: one starts, for the latest").contains(Instant.parse("2026-06-01T13:00:00Z"));
    assertThat(hourly.due(Instant.parse("2026-06-01T13:00:01Z"), Instant.parse("2026-06-01T13:20:00Z"))).isEmpty();
  }

  @Test
  void refusesAScheduleNamingTheObjectTheFieldAndTheFix() {
    assertThatThrownBy(() -> ScheduleTimes.of(schedule("every night", "UTC")))
        .isInstanceOf(ScheduleTimes.InvalidScheduleSpec.class)
        .hasMessageContaining("BroodSchedule ci/nightly").hasMessageContaining("spec.schedule \"every night\"")
        .hasMessageContaining("fix: five cron fields")
        .satisfies(e -> assertThat(((ScheduleTimes.InvalidScheduleSpec) e).reason()).isEqualTo("InvalidSchedule"));
    assertThatThrownBy(() -> ScheduleTimes.of(schedule("0 0 30 2 *", "UTC")))
        .hasMessageContaining("names no date that exists");
  }

  @Test
  void refusesATimeZoneThatIsNotIana() {
    assertThatThrownBy(() -> ScheduleTimes.of(schedule("0 2 * * *", "Europe/Berln")))
        .isInstanceOf(ScheduleTimes.InvalidScheduleSpec.class)
        .hasMessageContaining("BroodSchedule ci/nightly").hasMessageContaining("spec.timeZone \"Europe/Berln\"")
        .hasMessageContaining("fix: a name of the time-zone database such as Europe/Berlin")
        .satisfies(e -> assertThat(((ScheduleTimes.InvalidScheduleSpec) e).reason()).isEqualTo("InvalidTimeZone"));
    assertThatThrownBy(() -> ScheduleTimes.of(schedule("0 2 * * *", "+02:00"))).hasMessageContaining("IANA");
  }

  @Test
  void namesEachRunAfterItsScheduledMinute() {
    assertThat(ScheduledOperation.name("nightly", Instant.parse("2026-03-29T01:00:00Z"))).isEqualTo("nightly-29579100");
  }

  private static BroodSchedule schedule(String expression, String zone) {
    BroodSchedule schedule = new BroodSchedule();
    schedule.setMetadata(new ObjectMetaBuilder().withName("nightly").withNamespace("ci").build());
    BroodScheduleSpec spec = new BroodScheduleSpec();
    spec.schedule = expression;
    spec.timeZone = zone;
    schedule.setSpec(spec);
    return schedule;
  }
}
