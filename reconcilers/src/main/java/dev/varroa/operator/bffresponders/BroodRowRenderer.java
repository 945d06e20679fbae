package dev.varroa.operator.bffresponders;

import dev.varroa.api.v1alpha1.BroodOperation;
import dev.varroa.api.v1alpha1.BroodOperationStatus;
import dev.varroa.api.v1alpha1.BroodSchedule;
import dev.varroa.api.v1alpha1.BroodScheduleStatus;
import dev.varroa.protocol.bus.v1.BroodOperationRow;
import dev.varroa.protocol.bus.v1.BroodScheduleRow;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;
import java.util.Objects;

/** BroodOperations and BroodSchedules as the lists show them, from the objects alone: pure, no client. */
public final class BroodRowRenderer {

  /** The label a BroodSchedule puts on every BroodOperation it creates. */
  public static final String SCHEDULE_LABEL = "varroa.dev/brood-schedule";
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private BroodRowRenderer() {
  }

  public static BroodOperationRow render(BroodOperation operation) {
    Map<String, String> labels = operation.getMetadata().getLabels();
    BroodOperationRow.Builder row = BroodOperationRow.newBuilder()
        .setNamespace(text(operation.getMetadata().getNamespace()))
        .setName(text(operation.getMetadata().getName()))
        .setCreatedAt(text(operation.getMetadata().getCreationTimestamp()))
        .setSchedule(labels == null ? "" : text(labels.get(SCHEDULE_LABEL)))
        .setDryRun(operation.getSpec() != null && Boolean.TRUE.equals(operation.getSpec().dryRun))
        .setObjectJson(JSON.asJson(operation));
    BroodOperationStatus status = operation.getStatus();
    if (status == null) {
      if (operation.getSpec() != null && operation.getSpec().steps != null) {
        operation.getSpec().steps.forEach(step -> row.addSteps(text(step.type)));
      }
      return row.build();
    }
    row.setPhase(status.phase == null ? "" : status.phase.name())
        .setMessage(text(status.message))
        .setStartedAt(text(status.startedAt))
        .setCompletedAt(text(status.completedAt));
    if (status.dryRun != null) {
      row.setDryRun(status.dryRun);
    }
    if (status.steps != null && !status.steps.isEmpty()) {
      row.addAllSteps(status.steps);
    } else if (operation.getSpec() != null && operation.getSpec().steps != null) {
      operation.getSpec().steps.forEach(step -> row.addSteps(text(step.type)));
    }
    BroodOperationStatus.Counts counts = status.counts;
    if (counts != null) {
      row.setTotal(count(counts.total)).setPending(count(counts.pending)).setRunning(count(counts.running))
          .setPaused(count(counts.paused)).setSucceeded(count(counts.succeeded)).setFailed(count(counts.failed))
          .setUnknown(count(counts.unknown)).setCancelled(count(counts.cancelled));
    }
    return row.build();
  }

  public static BroodScheduleRow render(BroodSchedule schedule) {
    BroodScheduleRow.Builder row = BroodScheduleRow.newBuilder()
        .setNamespace(text(schedule.getMetadata().getNamespace()))
        .setName(text(schedule.getMetadata().getName()))
        .setCreatedAt(text(schedule.getMetadata().getCreationTimestamp()))
        .setObjectJson(JSON.asJson(schedule));
    if (schedule.getSpec() != null) {
      row.setSchedule(text(schedule.getSpec().schedule))
          .setTimeZone(text(schedule.getSpec().timeZone))
          .setSuspend(Boolean.TRUE.equals(schedule.getSpec().suspend))
          .setConcurrencyPolicy(text(schedule.getSpec().concurrencyPolicy));
    }
    BroodScheduleStatus status = schedule.getStatus();
    if (status != null) {
      row.setNextRunTime(text(status.nextRunTime))
          .setLastRunTime(text(status.lastRunTime))
          .setLastResult(text(status.lastResult))
          .setLastOperation(text(status.lastOperation))
          .setMessage(text(status.message));
      if (status.active != null) {
        row.addAllActive(status.active);
      }
    }
    return row.build();
  }

  private static int count(Integer value) {
    return value == null ? 0 : Math.max(0, value);
  }

  private static String text(String value) {
    return Objects.toString(value, "");
  }
}
