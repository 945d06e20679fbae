package dev.varroa.operator.agents;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.operator.channel.PodPlayer;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;
import dev.varroa.testfixtures.kube.csi.CsiStandIn;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plays the StatefulSet controller, the kubelet and the Jenkins pods of one namespace where none run: a StatefulSet
 * at one replica gets a pod with a real mite and the Jenkins contract fixture started on its JENKINS_HOME claim's
 * folder (bound by the CSI stand-in); at zero replicas, or when the test deletes the pod, the mite and Jenkins stop
 * and the pod goes; an orphan deletion's finalizer is removed as the garbage collector would.
 */
final class JenkinsPods implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JenkinsPods.class);
  private static final String ORPHAN_FINALIZER = "orphan";
  private final KubernetesClient client;
  private final String namespace;
  private final CsiStandIn csi;
  private final Path root;
  private final Map<String, PodPlayer> running = new ConcurrentHashMap<>();
  private final AtomicInteger started = new AtomicInteger();
  private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread thread = new Thread(r, "jenkins-pods");
    thread.setDaemon(true);
    return thread;
  });

  JenkinsPods(KubernetesClient client, String namespace, CsiStandIn csi, Path root) {
    this.client = client;
    this.namespace = namespace;
    this.csi = csi;
    this.root = root;
    loop.scheduleWithFixedDelay(this::play, 0, 200, TimeUnit.MILLISECONDS);
  }

  /** The Jenkins of the StatefulSet's running pod. */
  Optional<JenkinsFixture> jenkins(String statefulSet) {
    return Optional.ofNullable(running.get(statefulSet)).map(PodPlayer::jenkins);
  }

  /** Deletes the pod as `kubectl delete pod` would: its containers stop; the StatefulSet then makes a new one. */
  void deletePod(String statefulSet) throws Exception {
    loop.submit(() -> stop(statefulSet)).get();
  }

  private void play() {
    try {
      for (StatefulSet sts : client.apps().statefulSets().inNamespace(namespace).list().getItems()) {
        String name = sts.getMetadata().getName();
        if (sts.getMetadata().getDeletionTimestamp() != null) {
          if (sts.getMetadata().getFinalizers().contains(ORPHAN_FINALIZER)) {
            client.apps().statefulSets().inNamespace(namespace).withName(name)
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
          }
          continue;
        }
        int replicas = sts.getSpec().getReplicas() == null ? 1 : sts.getSpec().getReplicas();
        if (replicas == 0) {
          stop(name);
        } else if (!running.containsKey(name)) {
          start(sts);
        } else {
          // the kubelet keeps Secret and ConfigMap volumes in sync: a new pod's bootstrap token arrives this way
          running.get(name).refreshVolumes();
        }
      }
    } catch (Exception e) {
      LOG.warn("event=jenkins_pods_failed error=\"{}\"", e.toString());
    }
  }

  private void start(StatefulSet sts) throws Exception {
    Controller controller = client.resources(Controller.class).inNamespace(namespace).list().getItems().stream()
        .filter(c -> c.getStatus() != null && sts.getMetadata().getName().equals(c.getStatus().statefulSetName))
        .findFirst().orElse(null);
    if (controller == null) {
      return;
    }
    Path podRoot = Files.createDirectories(root.resolve(sts.getMetadata().getName() + "-" + started.incrementAndGet()));
    PodPlayer pod = new PodPlayer(client, controller, podRoot).withHomeOn(csi);
    if (!pod.podCanStart()) {
      return;
    }
    running.put(sts.getMetadata().getName(), pod.start(PodPlayer.MiteRunner.inProcess(), p -> {}));
  }

  private Void stop(String statefulSet) {
    PodPlayer pod = running.remove(statefulSet);
    if (pod != null) {
      try {
        pod.close();
      } catch (Exception e) {
        LOG.warn("event=jenkins_pod_stop_failed error=\"{}\"", e.toString());
      }
    }
    client.pods().inNamespace(namespace).withName(statefulSet + "-0").withGracePeriod(0).delete();
    return null;
  }

  @Override
  public void close() throws Exception {
    loop.shutdownNow();
    for (PodPlayer pod : running.values()) {
      pod.close();
    }
  }
}
