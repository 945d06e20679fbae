package dev.varroa.operator.home;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;

/** Starts the copy and check Jobs of a move and reads how they ended: the script's report is the pod's termination message. */
final class HomeCopyJobs {
  /** The label the Job controller puts on a Job's pods. */
  static final String JOB_NAME_LABEL = "job-name";

  /** Where a Job stands. */
  sealed interface Result permits Running, Succeeded, Failed {}

  record Running(String since) implements Result {}

  /** @param report the script's one line, e.g. "copied files=10 bytes=2048" */
  record Succeeded(String report) implements Result {}

  record Failed(String message) implements Result {}

  private final KubernetesClient client;
  private final HomeVolumes volumes;

  HomeCopyJobs(KubernetesClient client, HomeVolumes volumes) {
    this.client = client;
    this.volumes = volumes;
  }

  /** The Job's state, creating it first when it does not exist. */
  Result run(Job job, HasMetadata owner) {
    String namespace = job.getMetadata().getNamespace();
    Job existing = client.batch().v1().jobs().inNamespace(namespace).withName(job.getMetadata().getName()).get();
    if (existing == null) {
      volumes.create(job, Optional.of(owner));
      return new Running("now");
    }
    if (existing.getMetadata().getDeletionTimestamp() != null) {
      return new Running("a previous Job of the same name is being deleted");
    }
    var status = existing.getStatus();
    boolean failed = status != null && (status.getFailed() != null && status.getFailed() > 0
        || status.getConditions() != null && status.getConditions().stream()
            .anyMatch(c -> "Failed".equals(c.getType()) && "True".equals(c.getStatus())));
    boolean succeeded = status != null && status.getSucceeded() != null && status.getSucceeded() > 0;
    if (succeeded) {
      return new Succeeded(report(existing).orElse("finished without a report"));
    }
    if (failed) {
      String why = report(existing).or(() -> status.getConditions() == null ? Optional.empty()
          : status.getConditions().stream().filter(c -> "Failed".equals(c.getType()))
              .map(c -> c.getReason() + ": " + c.getMessage()).findFirst()).orElse("no message");
      return new Failed(why);
    }
    return new Running(status == null || status.getStartTime() == null ? "not started" : status.getStartTime());
  }

  void delete(String namespace, String name) {
    client.batch().v1().jobs().inNamespace(namespace).withName(name)
        .withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
  }

  /** The copy container's termination message, from the newest pod of the Job. */
  private Optional<String> report(Job job) {
    return client.pods().inNamespace(job.getMetadata().getNamespace())
        .withLabel(JOB_NAME_LABEL, job.getMetadata().getName()).list().getItems().stream()
        .filter(p -> p.getMetadata().getCreationTimestamp() != null)
        .max(java.util.Comparator.comparing(p -> p.getMetadata().getCreationTimestamp()))
        .flatMap(HomeCopyJobs::terminationMessage);
  }

  private static Optional<String> terminationMessage(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
      return Optional.empty();
    }
    return pod.getStatus().getContainerStatuses().stream()
        .filter(s -> HomeCopyJobRenderer.CONTAINER.equals(s.getName()))
        .map(ContainerStatus::getState)
        .filter(s -> s != null && s.getTerminated() != null)
        .map(s -> s.getTerminated())
        .map(ContainerStateTerminated::getMessage)
        .filter(m -> m != null && !m.isBlank())
        .map(String::strip)
        .findFirst();
  }
}
