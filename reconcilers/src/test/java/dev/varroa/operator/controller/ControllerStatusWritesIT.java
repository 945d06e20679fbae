package dev.varroa.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.operator.OperatorSettings;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every status patch is a write the API server and every watcher pays for: counts, through a watch on a real API
 * server, the status writes a new Controller's first passes make until it runs, and checks a pass that finds nothing
 * new writes none.
 */
@WithKubeApiServer
class ControllerStatusWritesIT {
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  /**
   * Provisioning once its objects are applied, the home claim's volume once it is bound, Running once its pod is ready
   * (docs/controllers.md); each stage is waited for, so passes that race the next event do not change the count.
   */
  static final int FIRST_PASSES_STATUS_WRITES = 3;
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  /** The status of each version of the Controller whose status differs from the version before. */
  private static final class StatusWrites implements Watcher<Controller> {
    final List<ControllerStatus> written = new CopyOnWriteArrayList<>();
    private String last = JSON.asJson(null);

    @Override
    public synchronized void eventReceived(Action action, Controller controller) {
      String status = JSON.asJson(controller.getStatus());
      if (!status.equals(last)) {
        last = status;
        written.add(controller.getStatus());
      }
    }

    @Override
    public void onClose(WatcherException cause) {}

    boolean reached(ControllerStatus.Phase phase) {
      return written.stream().anyMatch(s -> s.phase == phase);
    }
  }

  @Test
  void aNewControllerWritesStatusOncePerStageUntilItRuns(KubeApiServer kube, @TempDir Path cache) {
    KubernetesClient client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("writes").endMetadata().build())
        .create();
    StarterProfile.install(client, null);
    StatusWrites writes = new StatusWrites();
    try (VarroaOperator operator = started(client, cache);
        Watch watch = client.resources(Controller.class).inNamespace("writes").withName("counted").watch(writes)) {
      Controller created = client.resource(JSON.unmarshal("""
          apiVersion: varroa.dev/v1alpha1
          kind: Controller
          metadata: {name: counted, namespace: writes}
          spec: {}
          """, Controller.class)).create();
      await().atMost(DEADLINE).until(() -> writes.reached(ControllerStatus.Phase.Provisioning)
          && statefulSet(client, created) != null);
      KubeletStandIn kubelet = new KubeletStandIn(client);
      Pod pod = kubelet.createPod(statefulSet(client, created));
      await().atMost(DEADLINE).until(() -> writes.written.stream()
          .anyMatch(s -> s.home != null && s.home.volumeName != null));
      kubelet.ready(pod);
      await().atMost(DEADLINE).until(() -> writes.reached(ControllerStatus.Phase.Running));
      int untilRunning = writes.written.size();

      // a pass that finds nothing new (a label on the pod starts one) writes nothing
      long passes = operator.controllers().completedPasses();
      client.pods().inNamespace("writes").withName(pod.getMetadata().getName())
          .edit(p -> { p.getMetadata().getLabels().put("touched", "yes"); return p; });
      await().atMost(DEADLINE).until(() -> operator.controllers().completedPasses() > passes);

      System.out.println("event=status_writes_counted until_running=" + untilRunning + " phases="
          + writes.written.stream().map(s -> String.valueOf(s.phase)).toList());
      writes.written.forEach(s -> System.out.println("event=status_written status=" + JSON.asJson(s)));
      assertThat(untilRunning).isLessThanOrEqualTo(FIRST_PASSES_STATUS_WRITES);
      assertThat(writes.written.get(0).phase).isEqualTo(ControllerStatus.Phase.Provisioning);
      assertThat(writes.written).hasSize(untilRunning);
    }
  }

  private static VarroaOperator started(KubernetesClient client, Path cache) {
    VarroaOperator operator = new VarroaOperator(client, OperatorSettings.defaults(cache), null);
    operator.start();
    return operator;
  }

  private static StatefulSet statefulSet(KubernetesClient client, Controller controller) {
    return client.apps().statefulSets().inNamespace("writes")
        .withName(dev.varroa.operator.render.naming.StatefulSetName.of(controller.getMetadata().getName(),
            controller.getMetadata().getUid())).get();
  }
}
