package dev.varroa.plugin.schedules;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.JsonFormat;
import dev.varroa.plugin.testing.SteppedClock;
import dev.varroa.protocol.builds.v1.JobScheduleInventory;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScheduleInventoryTest {

  private final SteppedClock clock = new SteppedClock(Instant.parse("2026-12-01T10:00:00Z"));

  @Test
  void listsEachJobsTimerLinesSortedWithoutCommentsOrBlanks() throws Exception {
    Map<String, String> specs = new LinkedHashMap<>();
    specs.put("team/zeta", "H 2 * * *");
    specs.put("team/alpha", "# nightly\nTZ=Europe/Paris\n\nH 3 * * 1-5\n  H/15 * * * *  \n");
    specs.put("team/none", "# only a comment\n");

    JobScheduleInventory inventory = new ScheduleInventory(clock).snapshot(specs);

    assertThat(inventory.getJobsList()).extracting(schedule -> schedule.getJob()).containsExactly("team/alpha", "team/zeta");
    assertThat(inventory.getJobs(0).getTimerSpecsList()).containsExactly("TZ=Europe/Paris", "H 3 * * 1-5", "H/15 * * * *");
    assertThat(inventory.getObservedAtEpochMillis()).isEqualTo(clock.millis());
    String json = ScheduleInventory.toJson(inventory);
    assertThat(json).contains("\"jobs\"", "\"timerSpecs\"", "\"observedAtEpochMillis\"");
    JobScheduleInventory.Builder parsed = JobScheduleInventory.newBuilder();
    JsonFormat.parser().merge(json, parsed);
    assertThat(parsed.build()).isEqualTo(inventory);
  }

  @Test
  void keepsTheObservationTimeWhileNothingChanges() {
    ScheduleInventory schedules = new ScheduleInventory(clock);
    JobScheduleInventory first = schedules.snapshot(Map.of("a", "H * * * *"));
    clock.advance(Duration.ofMinutes(1));
    JobScheduleInventory same = schedules.snapshot(Map.of("a", "H * * * *"));
    clock.advance(Duration.ofMinutes(1));
    JobScheduleInventory changed = schedules.snapshot(Map.of("a", "H 1 * * *"));

    assertThat(ScheduleInventory.toJson(same)).isEqualTo(ScheduleInventory.toJson(first));
    assertThat(changed.getObservedAtEpochMillis()).isGreaterThan(first.getObservedAtEpochMillis());
  }

  @Test
  void printsAnEmptyInventoryWithItsList() {
    assertThat(ScheduleInventory.toJson(new ScheduleInventory(clock).snapshot(Map.of()))).contains("\"jobs\": []");
  }
}
