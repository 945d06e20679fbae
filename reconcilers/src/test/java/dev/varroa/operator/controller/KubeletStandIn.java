package dev.varroa.operator.controller;

import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/**
 * Plays the StatefulSet controller and the kubelet, which do not run here: creates the pod of a
 * StatefulSet from its template and sets the container states a real node would report.
 */
public final class KubeletStandIn {
  private final KubernetesClient client;
  private final boolean bindsClaims;

  public KubeletStandIn(KubernetesClient client) {
    this(client, true);
  }

  /**
   * @param bindsClaims false when a provisioner stand-in (CsiStandIn) binds the claims: this one then only creates
   *     them from the template, unbound, as the StatefulSet controller does
   */
  public KubeletStandIn(KubernetesClient client, boolean bindsClaims) {
    this.client = client;
    this.bindsClaims = bindsClaims;
  }

  /**
   * Creates (or re-creates) pod -0 from the StatefulSet's current template, with each
   * volumeClaimTemplate bound to its claim {@code <template>-<sts>-0}, created once and then reused
   * by every later pod, as the StatefulSet controller does.
   */
  public Pod createPod(StatefulSet sts) {
    String podName = sts.getMetadata().getName() + "-0";
    java.util.List<io.fabric8.kubernetes.api.model.Volume> volumes = new java.util.ArrayList<>(
        sts.getSpec().getTemplate().getSpec().getVolumes());
    for (io.fabric8.kubernetes.api.model.PersistentVolumeClaim template : sts.getSpec().getVolumeClaimTemplates()) {
      String claim = template.getMetadata().getName() + "-" + podName;
      if (client.persistentVolumeClaims().inNamespace(sts.getMetadata().getNamespace()).withName(claim).get() == null) {
        // the StatefulSet controller's part: the claim from the template, with its labels; then the
        // provisioner's: bind it to a volume of the requested size
        io.fabric8.kubernetes.api.model.PersistentVolumeClaim created = client.resource(
            new io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder()
                .withNewMetadata().withName(claim).withNamespace(sts.getMetadata().getNamespace())
                .withLabels(template.getMetadata().getLabels()).endMetadata()
                .withSpec(new io.fabric8.kubernetes.api.model.PersistentVolumeClaimSpecBuilder(template.getSpec())
                    .withVolumeName(bindsClaims ? "pv-" + claim : null).build())
                .build()).create();
        if (!bindsClaims) {
          volumes.add(new io.fabric8.kubernetes.api.model.VolumeBuilder().withName(template.getMetadata().getName())
              .withNewPersistentVolumeClaim().withClaimName(claim).endPersistentVolumeClaim().build());
          continue;
        }
        created.setStatus(new io.fabric8.kubernetes.api.model.PersistentVolumeClaimStatusBuilder().withPhase("Bound")
            .withAccessModes(template.getSpec().getAccessModes())
            .withCapacity(template.getSpec().getResources().getRequests()).build());
        client.resource(created).updateStatus();
      }
      volumes.add(new io.fabric8.kubernetes.api.model.VolumeBuilder().withName(template.getMetadata().getName())
          .withNewPersistentVolumeClaim().withClaimName(claim).endPersistentVolumeClaim().build());
    }
    Pod pod = new PodBuilder()
        .withNewMetadata()
        .withName(podName)
        .withNamespace(sts.getMetadata().getNamespace())
        .withLabels(sts.getSpec().getTemplate().getMetadata().getLabels())
        .withAnnotations(sts.getSpec().getTemplate().getMetadata().getAnnotations())
        .endMetadata()
        .withSpec(new io.fabric8.kubernetes.api.model.PodSpecBuilder(sts.getSpec().getTemplate().getSpec())
            .withVolumes(volumes).build())
        .build();
    return client.resource(pod).create();
  }

  /** Reports the pod running and ready. */
  public void ready(Pod pod) {
    setStatus(pod, "Running", "True", List.of(running("jenkins")));
  }

  /** Reports the Jenkins container crash-looping after it exited with a code. */
  void crashLooping(Pod pod, int exitCode, int restarts) {
    ContainerStatus jenkins = new ContainerStatusBuilder().withName("jenkins").withImage("jenkins").withImageID("")
        .withReady(false).withRestartCount(restarts)
        .withState(new ContainerStateBuilder().withNewWaiting().withReason("CrashLoopBackOff").endWaiting().build())
        .withLastState(new ContainerStateBuilder().withNewTerminated().withExitCode(exitCode).withReason("Error")
            .endTerminated().build())
        .build();
    setStatus(pod, "Running", "False", List.of(jenkins));
  }

  /** Reports the plugins init container exited with a code, so Jenkins never started. */
  void pluginsFailed(Pod pod, int exitCode) {
    Pod current = client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).get();
    ContainerStatus plugins = new ContainerStatusBuilder().withName("plugins").withImage("jenkins").withImageID("")
        .withReady(false).withRestartCount(2)
        .withState(new ContainerStateBuilder().withNewTerminated().withExitCode(exitCode).withReason("Error")
            .withMessage("plugin kubernetes:9.9 not found").endTerminated().build())
        .build();
    current.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Pending")
        .withConditions(new PodConditionBuilder().withType("Ready").withStatus("False").build())
        .withInitContainerStatuses(plugins).build());
    client.resource(current).updateStatus();
  }

  private void setStatus(Pod pod, String phase, String ready, List<ContainerStatus> containers) {
    Pod current = client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).get();
    current.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder()
        .withPhase(phase)
        .withConditions(new PodConditionBuilder().withType("Ready").withStatus(ready).build())
        .withContainerStatuses(containers)
        .build());
    client.resource(current).updateStatus();
  }

  private static ContainerStatus running(String name) {
    return new ContainerStatusBuilder().withName(name).withImage(name).withImageID("").withReady(true).withRestartCount(0)
        .withState(new ContainerStateBuilder().withNewRunning().endRunning().build()).build();
  }
}
