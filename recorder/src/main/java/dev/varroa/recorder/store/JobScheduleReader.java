package dev.varroa.recorder.store;

import dev.varroa.protocol.builds.v1.JobSchedule;
import dev.varroa.protocol.bus.v1.JobSchedules;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Arrays;
import javax.sql.DataSource;

/**
 * Reads one controller's latest job-schedule inventory (tables job_schedule_inventories and job_schedules) for the
 * operator, which wakes a parked controller ahead of its next timer-triggered job.
 */
public final class JobScheduleReader {
  private final DataSource dataSource;

  public JobScheduleReader(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** The inventory of the controller with this UID; {@code known} false when none was ever recorded. */
  public JobSchedules read(String controllerUid) throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      JobSchedules.Builder answer = JobSchedules.newBuilder();
      try (PreparedStatement inventory = connection.prepareStatement(
          "SELECT observed_at FROM job_schedule_inventories WHERE controller_uid = ?")) {
        inventory.setString(1, controllerUid);
        try (ResultSet row = inventory.executeQuery()) {
          if (!row.next()) {
            return answer.setKnown(false).build();
          }
          answer.setKnown(true)
              .setObservedAtEpochMillis(row.getObject(1, OffsetDateTime.class).toInstant().toEpochMilli());
        }
      }
      try (PreparedStatement jobs = connection.prepareStatement(
          "SELECT job, timer_specs FROM job_schedules WHERE controller_uid = ? ORDER BY job")) {
        jobs.setString(1, controllerUid);
        try (ResultSet rows = jobs.executeQuery()) {
          while (rows.next()) {
            Array specs = rows.getArray(2);
            answer.addJobs(JobSchedule.newBuilder().setJob(rows.getString(1))
                .addAllTimerSpecs(Arrays.asList((String[]) specs.getArray())));
            specs.free();
          }
        }
      }
      return answer.build();
    }
  }
}
