package dev.varroa.operator.hibernation;

import dev.varroa.protocol.ControllerIdentity;
import java.time.Instant;
import java.time.ZoneId;

/** Where a controller's timer-triggered jobs are learned: the record store, through the recorder. */
@FunctionalInterface
public interface JobSchedules {
  /** Nothing is known of any controller's timers (no record store). */
  JobSchedules NONE = (controller, zone, after) -> new InactivityPolicy.Timers.Unknown(
      "no record store: Varroa runs without the recorder that keeps job_schedules");

  /**
   * The next time any of the controller's jobs is triggered by its timer, strictly after {@code after}.
   *
   * @param jenkinsZone the zone Jenkins reads specs without TZ= in
   */
  InactivityPolicy.Timers next(ControllerIdentity controller, ZoneId jenkinsZone, Instant after);
}
