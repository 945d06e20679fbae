package dev.varroa.dashboard.reads;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Runs, stages and activity history from the build record store. Without the store every list is empty and no run
 * exists; the caller has been authorized for the read already and passes which Controllers it may see.
 */
public class RecordReads {

  /** GET /activity filters. */
  public record ActivityQuery(Optional<String> cluster, Optional<String> namespace, Optional<String> controller,
      Optional<Instant> since, int limit) {}

  /** GET /runs filters. */
  public record RunQuery(Optional<String> cluster, Optional<String> namespace, Optional<String> controller,
      Optional<String> job, Optional<Long> build, Optional<Instant> before, int limit) {}

  /** One run as the API shows it, and the Controller it belongs to (what its authorization is decided on). */
  public record RunView(DashboardReads.ControllerKey controller, Map<String, Object> body) {}

  public static RecordReads none() {
    return new RecordReads();
  }

  public boolean enabled() {
    return false;
  }

  public List<Map<String, Object>> activity(ActivityQuery query, Predicate<DashboardReads.ControllerKey> allowed)
      throws ReadRefused {
    return List.of();
  }

  public List<Map<String, Object>> runs(RunQuery query, Predicate<DashboardReads.RunKey> allowed)
      throws ReadRefused {
    return List.of();
  }

  /** The run with its stages and test summary. */
  public Optional<RunView> run(String runId) throws ReadRefused {
    return Optional.empty();
  }

  /** Builds per hour by result and queue-to-start p50/p95 over the allowed Controllers' runs; null without a store. */
  public Map<String, Object> buildStatistics(Instant now, int hours, Predicate<DashboardReads.ControllerKey> allowed)
      throws ReadRefused {
    return null;
  }

  /** The job schedules the plugin reported, of the allowed Controllers (GET /broodschedules). */
  public List<Map<String, Object>> jobSchedules(Predicate<DashboardReads.ControllerKey> allowed) throws ReadRefused {
    return List.of();
  }

  public List<Map<String, Object>> searchRuns(String needle, Predicate<DashboardReads.RunKey> allowed)
      throws ReadRefused {
    return List.of();
  }
}
