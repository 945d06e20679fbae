package dev.varroa.plugin.schedules;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.varroa.protocol.builds.v1.JobSchedule;
import dev.varroa.protocol.builds.v1.JobScheduleInventory;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The job-schedule inventory behind {@code GET /varroa/schedules}: every job with a timer trigger and its specs, one
 * cron line each (blank lines and {@code #} comments dropped, {@code TZ=} lines kept), jobs sorted by full name.
 * {@code observedAtEpochMillis} is when this content was first seen, so an unchanged inventory renders to the same
 * JSON on every poll and the mite's "forward when it changed" compares equal.
 */
public final class ScheduleInventory {

  private static final JsonFormat.Printer PRINTER = JsonFormat.printer().alwaysPrintFieldsWithNoPresence();

  private final Clock clock;
  private JobScheduleInventory last;

  public ScheduleInventory(Clock clock) {
    this.clock = clock;
  }

  /** {@code timerSpecsByJob}: job full name to its TimerTrigger spec text (lines as Jenkins stores them). */
  public synchronized JobScheduleInventory snapshot(Map<String, String> timerSpecsByJob) {
    JobScheduleInventory.Builder inventory = JobScheduleInventory.newBuilder();
    new TreeMap<>(timerSpecsByJob).forEach((job, spec) -> {
      List<String> lines = specLines(spec);
      if (!lines.isEmpty()) {
        inventory.addJobs(JobSchedule.newBuilder().setJob(job).addAllTimerSpecs(lines));
      }
    });
    if (last != null && last.getJobsList().equals(inventory.getJobsList())) {
      return last;
    }
    last = inventory.setObservedAtEpochMillis(clock.millis()).build();
    return last;
  }

  /** The protobuf JSON mapping, every field printed. */
  public static String toJson(JobScheduleInventory inventory) {
    try {
      return PRINTER.print(inventory);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a JobScheduleInventory always prints as JSON", e);
    }
  }

  static List<String> specLines(String spec) {
    if (spec == null) {
      return List.of();
    }
    return spec.lines().map(String::strip).filter(line -> !line.isEmpty() && !line.startsWith("#")).toList();
  }
}
