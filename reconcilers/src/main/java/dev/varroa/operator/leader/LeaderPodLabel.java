package dev.varroa.operator.leader;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Marks the operator pod that holds the lease with {@value #LABEL}{@code =true}. Only the leader reconciles,
 * so the webhook Service selects this label: a push reaches the replica that can act on it.
 */
public final class LeaderPodLabel {
  public static final String LABEL = "varroa.dev/leader";
  private static final Logger LOG = LoggerFactory.getLogger(LeaderPodLabel.class);

  private final KubernetesClient client;
  private final String namespace;
  private final String podName;
  private final Runnable whenLeading;

  public LeaderPodLabel(KubernetesClient client, String namespace, String podName) {
    this(client, namespace, podName, () -> { });
  }

  /** With {@code whenLeading}: what else the new leader does first (the Lease given its installation owner). */
  public LeaderPodLabel(KubernetesClient client, String namespace, String podName, Runnable whenLeading) {
    this.client = client;
    this.namespace = namespace;
    this.podName = podName;
    this.whenLeading = whenLeading;
  }

  /** The lease holder identity: the pod's name. */
  public String podName() {
    return podName;
  }

  /** Callbacks for the lease: label on becoming leader, unlabel when another replica leads. */
  public LeaderCallbacks callbacks() {
    return new LeaderCallbacks(() -> {
      set(true);
      whenLeading.run();
    }, () -> set(false), leader -> {
      if (!podName.equals(leader)) {
        set(false);
      }
    });
  }

  void set(boolean leader) {
    try {
      // a merge patch without a resourceVersion: the kubelet writes the pod's status all through its start, and an
      // edit (read, then write that version) lost that race with a 409 on a real node, leaving the leader unlabelled
      Map<String, String> labels = new HashMap<>();
      labels.put(LABEL, leader ? "true" : null);
      client.pods().inNamespace(namespace).withName(podName).patch(PatchContext.of(PatchType.JSON_MERGE),
          client.getKubernetesSerialization().asJson(Map.of("metadata", Map.of("labels", labels))));
    } catch (KubernetesClientException e) {
      // The webhook Service then misses this replica until the next change; reconciling is unaffected.
      LOG.warn("event=leader_label_failed pod={}/{} leader={} error=\"{}\"", namespace, podName, leader, e.getMessage());
    }
  }
}
