package dev.varroa.operator.home;

import dev.varroa.operator.controller.KubeletStandIn;
import dev.varroa.testfixtures.kube.csi.StatefulSetClaims;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plays what kube-controller-manager and the kubelet would do for one-replica StatefulSets in one namespace, which do
 * not run in tests: the claims from the volumeClaimTemplates (left for the CSI stand-in to bind), pod 0 once they are
 * Bound (reported ready), the pod gone when the StatefulSet is scaled to zero, and the garbage collector's part in an
 * orphan deletion (the orphan finalizer removed).
 */
final class StatefulSetPlayer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StatefulSetPlayer.class);
  private static final long PERIOD_MILLIS = 200;
  private static final String ORPHAN_FINALIZER = "orphan";

  private final KubernetesClient client;
  private final String namespace;
  private final KubeletStandIn kubelet;
  private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "statefulset-player");
    t.setDaemon(true);
    return t;
  });
  private volatile boolean paused;

  StatefulSetPlayer(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
    this.kubelet = new KubeletStandIn(client);
    loop.scheduleWithFixedDelay(this::play, 0, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** While paused, pods are neither created nor deleted: a drain that takes its time. */
  void pause(boolean paused) {
    this.paused = paused;
  }

  private void play() {
    try {
      for (StatefulSet sts : client.apps().statefulSets().inNamespace(namespace).list().getItems()) {
        play(sts);
      }
    } catch (RuntimeException e) {
      LOG.warn("event=statefulset_player_failed error=\"{}\"", e.toString());
    }
  }

  private void play(StatefulSet sts) {
    String name = sts.getMetadata().getName();
    if (sts.getMetadata().getDeletionTimestamp() != null) {
      if (sts.getMetadata().getFinalizers().contains(ORPHAN_FINALIZER)) {
        client.apps().statefulSets().inNamespace(namespace).withName(name)
            .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
      }
      return;
    }
    if (paused) {
      return;
    }
    Pod pod = client.pods().inNamespace(namespace).withName(name + "-0").get();
    int replicas = sts.getSpec().getReplicas() == null ? 1 : sts.getSpec().getReplicas();
    if (replicas == 0) {
      if (pod != null) {
        client.resource(pod).withGracePeriod(0).delete();
      }
      return;
    }
    List<PersistentVolumeClaim> claims = StatefulSetClaims.create(client, sts, 0);
    boolean bound = claims.stream().allMatch(c -> c.getStatus() != null && "Bound".equals(c.getStatus().getPhase()));
    if (pod == null && bound) {
      kubelet.ready(kubelet.createPod(sts));
    }
  }

  @Override
  public void close() {
    loop.shutdownNow();
  }
}
