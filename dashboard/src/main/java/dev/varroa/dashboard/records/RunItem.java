package dev.varroa.dashboard.records;

import java.time.Instant;

/**
 * A run in the BFF contract's shape ({@code runId, cluster, namespace, controller, job, build, result, cause, node,
 * queuedAt, startedAt, completedAt, durationMillis, queuedMillis}); what the recorder has not learned yet is null.
 */
public record RunItem(String runId, String cluster, String namespace, String controller, String job, Long build,
    String result, String cause, String node, Instant queuedAt, Instant startedAt, Instant completedAt,
    Long durationMillis, Long queuedMillis) {

  public ControllerScope scope() {
    return new ControllerScope(cluster, namespace, controller, job);
  }
}
