package dev.varroa.dashboard.reads;

import dev.varroa.protocol.bus.v1.BroodOperationRow;
import dev.varroa.protocol.bus.v1.BroodScheduleRow;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** BroodOperations and BroodSchedules as the API's JSON shows them (docs/dashboard-api.md). Pure. */
public final class BroodViews {

  private BroodViews() {}

  public static Map<String, Object> operation(String cluster, BroodOperationRow row) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("cluster", cluster);
    out.put("namespace", row.getNamespace());
    out.put("name", row.getName());
    out.put("phase", row.getPhase());
    out.put("message", row.getMessage());
    out.put("dryRun", row.getDryRun());
    out.put("steps", List.copyOf(row.getStepsList()));
    Map<String, Object> counts = new LinkedHashMap<>();
    counts.put("total", row.getTotal());
    counts.put("pending", row.getPending());
    counts.put("running", row.getRunning());
    counts.put("paused", row.getPaused());
    counts.put("succeeded", row.getSucceeded());
    counts.put("failed", row.getFailed());
    counts.put("unknown", row.getUnknown());
    counts.put("cancelled", row.getCancelled());
    out.put("counts", counts);
    out.put("createdAt", orNull(row.getCreatedAt()));
    out.put("startedAt", orNull(row.getStartedAt()));
    out.put("completedAt", orNull(row.getCompletedAt()));
    out.put("schedule", orNull(row.getSchedule()));
    return out;
  }

  public static Map<String, Object> schedule(String cluster, BroodScheduleRow row) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("cluster", cluster);
    out.put("namespace", row.getNamespace());
    out.put("name", row.getName());
    out.put("schedule", row.getSchedule());
    // the defaults the CRD documents, so a reader never guesses what an omitted field means
    out.put("timeZone", row.getTimeZone().isEmpty() ? "UTC" : row.getTimeZone());
    out.put("suspend", row.getSuspend());
    out.put("concurrencyPolicy", row.getConcurrencyPolicy().isEmpty() ? "Forbid" : row.getConcurrencyPolicy());
    out.put("nextRunTime", orNull(row.getNextRunTime()));
    out.put("lastRunTime", orNull(row.getLastRunTime()));
    out.put("lastResult", orNull(row.getLastResult()));
    out.put("lastOperation", orNull(row.getLastOperation()));
    out.put("message", row.getMessage());
    out.put("active", List.copyOf(row.getActiveList()));
    return out;
  }

  private static String orNull(String value) {
    return value.isEmpty() ? null : value;
  }
}
