package dev.varroa.dashboard.records;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import javax.sql.DataSource;

/**
 * The timer triggers the Varroa plugin reports per job (table job_schedules, the recorder writes it): the job
 * schedules of GET /broodschedules. Authorization is the caller's filter over each row's Controller.
 */
public final class JobScheduleRecords {

  /** One job with timer triggers, of one Controller. */
  public record JobScheduleItem(String cluster, String namespace, String controller, String controllerUid, String job,
      List<String> timerSpecs, String observedAt) {}

  private final DataSource dataSource;

  public JobScheduleRecords(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Every recorded job schedule {@code allowed} accepts, by cluster, namespace, controller and job. */
  public List<JobScheduleItem> all(Predicate<ControllerScope> allowed) throws SQLException {
    List<JobScheduleItem> out = new ArrayList<>();
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select = connection.prepareStatement("SELECT cluster, namespace, controller_name,"
            + " controller_uid, job, timer_specs, observed_at FROM job_schedules"
            + " ORDER BY cluster, namespace, controller_name, job");
        ResultSet rows = select.executeQuery()) {
      while (rows.next()) {
        ControllerScope scope = new ControllerScope(rows.getString(1), rows.getString(2), rows.getString(3));
        if (!allowed.test(scope)) {
          continue;
        }
        Array specs = rows.getArray(6);
        List<String> timerSpecs = List.copyOf(Arrays.asList((String[]) specs.getArray()));
        specs.free();
        out.add(new JobScheduleItem(scope.cluster(), scope.namespace(), scope.controller(), rows.getString(4),
            rows.getString(5), timerSpecs, rows.getObject(7, OffsetDateTime.class).toInstant().toString()));
      }
    }
    return out;
  }
}
