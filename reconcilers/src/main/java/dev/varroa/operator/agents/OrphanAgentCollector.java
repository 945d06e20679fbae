package dev.varroa.operator.agents;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes agent pods that Jenkins no longer knows, once Jenkins is back (seed 003: pods left NotReady forever after a
 * restart that lost their node). Only pods whose node is gone from Jenkins go; an agent whose node Jenkins still has
 * keeps its pod and reconnects. Jenkins' view comes from the mite (ObservedState.agent_nodes), so nothing is removed
 * while the mite is away or has not reported the nodes.
 */
public final class OrphanAgentCollector {
  /** The label Varroa's Kubernetes cloud puts on every agent pod: the StatefulSet of the Jenkins that started it. */
  public static final String AGENT_OF = dev.varroa.operator.render.KubernetesCloudFragment.AGENT_OF_LABEL;
  /**
   * How long Jenkins must have been connected, and a pod must have existed, before a pod without a node is removed:
   * the Kubernetes plugin's own orphan timeout, so a pod being launched is never raced.
   */
  public static final Duration GRACE = Duration.ofSeconds(300);
  private static final Logger LOG = LoggerFactory.getLogger(OrphanAgentCollector.class);

  private final KubernetesClient client;
  private final Duration grace;

  public OrphanAgentCollector(KubernetesClient client) {
    this(client, GRACE);
  }

  /** @param grace shorter in tests only */
  public OrphanAgentCollector(KubernetesClient client, Duration grace) {
    this.client = client;
    this.grace = grace;
  }

  /**
   * @param agentsNamespace where the cloud starts agent pods
   * @param statefulSet the Jenkins whose agents these are
   * @param agentNodes Jenkins' agent computers as the mite reports them
   * @param connectedSince when the mite's current stream opened
   * @return the pods deleted
   */
  public List<String> collect(String agentsNamespace, String statefulSet, Set<String> agentNodes,
      Instant connectedSince, Instant now) {
    if (connectedSince.plus(grace).isAfter(now)) {
      return List.of();
    }
    List<Pod> pods = client.pods().inNamespace(agentsNamespace).withLabel(AGENT_OF, statefulSet).list().getItems();
    List<String> orphans = orphans(pods, agentNodes, now, grace);
    for (String name : orphans) {
      client.pods().inNamespace(agentsNamespace).withName(name).delete();
      LOG.info("event=orphan_agent_pod_deleted namespace={} pod={} jenkins={} reason=node_gone", agentsNamespace, name,
          statefulSet);
    }
    return orphans;
  }

  /** Pure: the pods, older than the grace, whose name is not one of Jenkins' agent nodes. */
  static List<String> orphans(List<Pod> pods, Set<String> agentNodes, Instant now, Duration grace) {
    return pods.stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .filter(p -> !agentNodes.contains(p.getMetadata().getName()))
        .filter(p -> p.getMetadata().getCreationTimestamp() != null
            && Instant.parse(p.getMetadata().getCreationTimestamp()).plus(grace).isBefore(now))
        .map(p -> p.getMetadata().getName())
        .sorted()
        .toList();
  }
}
