package dev.varroa.testfixtures.kube.job;

import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;

/** The statuses the kubelet writes on a Job's pod and the Job controller on the Job, at each step of a run. */
final class JobStatuses {
  static final String BACKOFF_LIMIT_EXCEEDED = "BackoffLimitExceeded";
  static final String DEADLINE_EXCEEDED = "DeadlineExceeded";

  private JobStatuses() {}

  static PodStatus unschedulable(List<String> unboundClaims) {
    return new PodStatusBuilder()
        .withPhase("Pending")
        .withConditions(new PodConditionBuilder().withType("PodScheduled").withStatus("False").withReason("Unschedulable")
            .withMessage("0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims " + unboundClaims)
            .withLastTransitionTime(time(Instant.now())).build())
        .build();
  }

  static PodStatus running(Pod pod, Instant startedAt) {
    String container = pod.getSpec().getContainers().get(0).getName();
    return new PodStatusBuilder()
        .withPhase("Running")
        .withStartTime(time(startedAt))
        .withHostIP("127.0.0.1").withPodIP("127.0.0.1")
        .withConditions(condition("PodScheduled", "True", startedAt), condition("Initialized", "True", startedAt),
            condition("ContainersReady", "True", startedAt), condition("Ready", "True", startedAt))
        .withContainerStatuses(new ContainerStatusBuilder().withName(container)
            .withImage(pod.getSpec().getContainers().get(0).getImage()).withImageID("")
            .withReady(true).withStarted(true).withRestartCount(0)
            .withState(new ContainerStateBuilder().withNewRunning().withStartedAt(time(startedAt)).endRunning().build())
            .build())
        .build();
  }

  static PodStatus terminated(Pod pod, JobRun run) {
    String container = pod.getSpec().getContainers().get(0).getName();
    return new PodStatusBuilder()
        .withPhase(run.succeeded() ? "Succeeded" : "Failed")
        .withStartTime(time(run.startedAt()))
        .withHostIP("127.0.0.1").withPodIP("127.0.0.1")
        .withConditions(condition("PodScheduled", "True", run.startedAt()),
            condition("Initialized", "True", run.startedAt()),
            condition("ContainersReady", "False", run.finishedAt()), condition("Ready", "False", run.finishedAt()))
        .withContainerStatuses(new ContainerStatusBuilder().withName(container)
            .withImage(pod.getSpec().getContainers().get(0).getImage()).withImageID("")
            .withReady(false).withStarted(false).withRestartCount(0)
            .withState(new ContainerStateBuilder().withNewTerminated()
                .withExitCode(run.exitCode())
                .withReason(run.reason())
                .withMessage(run.terminationMessage().isEmpty() ? null : run.terminationMessage())
                .withStartedAt(time(run.startedAt()))
                .withFinishedAt(time(run.finishedAt()))
                .endTerminated().build())
            .build())
        .build();
  }

  /** The two conditions the Job controller sets, in its order, when a Job succeeds. */
  static List<JobCondition> complete(Instant at) {
    return List.of(jobCondition("SuccessCriteriaMet", "CompletionsReached", "Reached expected number of succeeded pods", at),
        jobCondition("Complete", "CompletionsReached", "Reached expected number of succeeded pods", at));
  }

  /** The two conditions the Job controller sets, in its order, when a Job fails. */
  static List<JobCondition> failed(String reason, String message, Instant at) {
    return List.of(jobCondition("FailureTarget", reason, message, at), jobCondition("Failed", reason, message, at));
  }

  private static JobCondition jobCondition(String type, String reason, String message, Instant at) {
    return new JobConditionBuilder().withType(type).withStatus("True").withReason(reason).withMessage(message)
        .withLastProbeTime(time(at)).withLastTransitionTime(time(at)).build();
  }

  private static io.fabric8.kubernetes.api.model.PodCondition condition(String type, String status, Instant at) {
    return new PodConditionBuilder().withType(type).withStatus(status).withLastTransitionTime(time(at)).build();
  }

  static String time(Instant instant) {
    return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.SECONDS));
  }
}
