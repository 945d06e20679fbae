package dev.varroa.dashboard;

import dev.varroa.api.v1alpha1.BroodOperation;
import dev.varroa.api.v1alpha1.BroodOperationStatus;
import dev.varroa.api.v1alpha1.BroodSchedule;
import dev.varroa.api.v1alpha1.BroodScheduleStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.function.Consumer;

/**
 * BroodOperations and BroodSchedules as the tests put them in the API server, with the status the engine would write
 * (the engine is not part of these tests: the tests write the status themselves).
 */
public final class BroodFixtures {

  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private BroodFixtures() {}

  /** A backup-then-safeRestart operation on the named Controllers of its namespace. */
  public static BroodOperation operation(KubernetesClient client, String namespace, String name, String schedule,
      List<String> controllers) {
    String yaml = "apiVersion: varroa.dev/v1alpha1\nkind: BroodOperation\nmetadata:\n  name: " + name
        + "\n  namespace: " + namespace + "\n"
        + (schedule == null ? "" : "  labels: {varroa.dev/brood-schedule: " + schedule + "}\n")
        + "spec:\n  targets:\n    namespaces: [" + namespace + "]\n    names: [" + String.join(", ", controllers)
        + "]\n  steps:\n    - type: backup\n    - type: safeRestart\n  strategy: {maxConcurrent: 1}\n";
    return client.resource(YAML.unmarshal(yaml, BroodOperation.class)).create();
  }

  /** Writes the status as the engine would: one target per Controller, the first running its second step. */
  public static BroodOperation running(KubernetesClient client, BroodOperation operation, String cluster) {
    return status(client, operation, status -> {
      status.phase = BroodOperationStatus.Phase.Running;
      status.message = "1 of " + operation.getSpec().targets.names.size() + " targets running";
      status.startedAt = "2026-12-04T20:00:00Z";
      status.steps = List.of("backup", "safeRestart");
      BroodOperationStatus.Counts counts = new BroodOperationStatus.Counts();
      counts.total = operation.getSpec().targets.names.size();
      counts.running = 1;
      counts.pending = counts.total - 1;
      counts.succeeded = 0;
      counts.failed = 0;
      counts.paused = 0;
      counts.unknown = 0;
      counts.cancelled = 0;
      status.counts = counts;
      boolean first = true;
      for (String name : operation.getSpec().targets.names) {
        BroodOperationStatus.Target target = new BroodOperationStatus.Target();
        target.cluster = cluster;
        target.namespace = operation.getMetadata().getNamespace();
        target.name = name;
        if (first) {
          target.phase = BroodOperationStatus.TargetPhase.Running;
          target.step = 1;
          target.message = "waiting for 1 running build";
          BroodOperationStatus.StepResult backup = new BroodOperationStatus.StepResult();
          backup.type = "backup";
          backup.phase = "Succeeded";
          backup.startedAt = "2026-12-04T20:00:01Z";
          backup.completedAt = "2026-12-04T20:01:00Z";
          BroodOperationStatus.StepResult restart = new BroodOperationStatus.StepResult();
          restart.type = "safeRestart";
          restart.phase = "Running";
          restart.startedAt = "2026-12-04T20:01:01Z";
          target.steps = List.of(backup, restart);
        } else {
          target.phase = BroodOperationStatus.TargetPhase.Pending;
          target.step = 0;
        }
        first = false;
        status.targets.add(target);
      }
    });
  }

  /** Replaces the status with what {@code change} makes of an empty one. */
  public static BroodOperation status(KubernetesClient client, BroodOperation operation,
      Consumer<BroodOperationStatus> change) {
    BroodOperation current = client.resources(BroodOperation.class).inNamespace(operation.getMetadata().getNamespace())
        .withName(operation.getMetadata().getName()).get();
    BroodOperationStatus status = new BroodOperationStatus();
    change.accept(status);
    current.setStatus(status);
    return client.resource(current).updateStatus();
  }

  /** A nightly backup schedule of its namespace, with the status the schedule reconciler would write. */
  public static BroodSchedule schedule(KubernetesClient client, String namespace, String name, String timeZone) {
    String yaml = "apiVersion: varroa.dev/v1alpha1\nkind: BroodSchedule\nmetadata: {name: " + name + ", namespace: "
        + namespace + "}\nspec:\n  schedule: \"0 2 * * *\"\n"
        + (timeZone == null ? "" : "  timeZone: " + timeZone + "\n")
        + "  template:\n    spec:\n      targets: {namespaces: [" + namespace + "]}\n      steps: [{type: backup}]\n";
    BroodSchedule created = client.resource(YAML.unmarshal(yaml, BroodSchedule.class)).create();
    BroodScheduleStatus status = new BroodScheduleStatus();
    status.lastRunTime = "2026-12-04T01:00:00Z";
    status.nextRunTime = "2026-12-05T01:00:00Z";
    status.lastResult = "Succeeded";
    status.lastOperation = name + "-29416380";
    created.setStatus(status);
    return client.resource(created).updateStatus();
  }
}
