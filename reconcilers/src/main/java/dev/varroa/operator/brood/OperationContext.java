package dev.varroa.operator.brood;

import dev.varroa.api.v1alpha1.BroodOperation;
import dev.varroa.api.v1alpha1.BroodOperationSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What a cluster needs of a BroodOperation to run its targets' steps: the holder's identity, the steps, the timeouts
 * and the resume annotation. The core sends it to a member with each request (as JSON).
 *
 * @param run names this run (the operation's UID and plan digest): annotation values and command ids derive from it
 * @param resume the operation's varroa.dev/resume annotation: a pause step waits until it changes
 */
public record OperationContext(String holdingCluster, String namespace, String name, String run,
    List<BroodOperationSpec.Step> steps, int stepTimeoutSeconds, int drainTimeoutSeconds, String resume) {
  /** Any new value resumes the targets waiting in a pause step (docs/brood-operations.md). */
  public static final String RESUME_ANNOTATION = "varroa.dev/resume";

  /**
   * @param runSteps the step types of the run under way (status.steps): when the spec's steps changed since it
   *     started, the run goes on with its own, keeping a timeout or note the spec still gives at the same place
   */
  public static OperationContext of(String holdingCluster, BroodOperation operation, String planDigest,
      List<String> runSteps) {
    BroodOperationSpec spec = operation.getSpec();
    List<BroodOperationSpec.Step> steps = new java.util.ArrayList<>();
    for (int i = 0; i < runSteps.size(); i++) {
      if (i < spec.steps.size() && spec.steps.get(i).type.equals(runSteps.get(i))) {
        steps.add(spec.steps.get(i));
      } else {
        BroodOperationSpec.Step step = new BroodOperationSpec.Step();
        step.type = runSteps.get(i);
        steps.add(step);
      }
    }
    BroodOperationSpec.Strategy strategy = spec.strategy == null ? new BroodOperationSpec.Strategy() : spec.strategy;
    Map<String, String> annotations = operation.getMetadata().getAnnotations();
    String digest = planDigest.substring(planDigest.indexOf(':') + 1);
    return new OperationContext(holdingCluster, operation.getMetadata().getNamespace(),
        operation.getMetadata().getName(), operation.getMetadata().getUid() + "-" + digest.substring(0, 12),
        List.copyOf(steps),
        strategy.stepTimeoutSeconds == null ? BroodOperationSpec.DEFAULT_STEP_TIMEOUT_SECONDS : strategy.stepTimeoutSeconds,
        strategy.drainTimeoutSeconds == null ? BroodOperationSpec.DEFAULT_DRAIN_TIMEOUT_SECONDS
            : strategy.drainTimeoutSeconds,
        annotations == null ? "" : annotations.getOrDefault(RESUME_ANNOTATION, ""));
  }

  Duration timeout(int step) {
    Integer own = steps.get(step).timeoutSeconds;
    return Duration.ofSeconds(own == null ? stepTimeoutSeconds : own);
  }

  Duration drainTimeout() {
    return Duration.ofSeconds(drainTimeoutSeconds);
  }

  String operation() {
    return holdingCluster + "/" + namespace + "/" + name;
  }
}
