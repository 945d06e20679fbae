package dev.varroa.operator.render;

import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.operator.render.naming.ControllerNames;
import dev.varroa.operator.render.resolve.PodSpecMerge;
import dev.varroa.operator.render.resolve.ResolvedController;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The Jenkins StatefulSet: one replica (zero when Stopped or parked by the inactivity policy), JENKINS_HOME on a volumeClaimTemplate,
 * the mite sidecar, the plugins init container and Jenkins. Owner references are the reconciler's.
 */
public final class StatefulSetRenderer {
  /** Time the kubelet allows after the drain timeout for Jenkins and the mite to stop. */
  public static final int TERMINATION_GRACE_MARGIN_SECONDS = 60;
  /** Claims outlive scale-down and deletion of the StatefulSet: "Data is kept". */
  public static final String CLAIM_RETENTION = "Retain";

  private StatefulSetRenderer() {}

  public static StatefulSet render(RenderInput input) {
    ResolvedController controller = input.controller();
    ControllerNames names = input.names();
    return new StatefulSetBuilder()
        .withNewMetadata()
        .withName(names.statefulSet())
        .withNamespace(controller.namespace())
        .withLabels(ControllerLabels.of(controller.name()))
        .endMetadata()
        .withNewSpec()
        .withReplicas(controller.stopped() || input.parking().parked() ? 0 : 1)
        .withServiceName(names.service())
        .withNewSelector().withMatchLabels(ControllerLabels.selector(controller.name())).endSelector()
        .withTemplate(podTemplate(input))
        .withVolumeClaimTemplates(jenkinsHome(controller))
        .withNewPersistentVolumeClaimRetentionPolicy()
        .withWhenDeleted(CLAIM_RETENTION).withWhenScaled(CLAIM_RETENTION)
        .endPersistentVolumeClaimRetentionPolicy()
        .endSpec()
        .build();
  }

  /** The pod template alone: what a roll compares. No input of it depends on JCasC. */
  public static PodTemplateSpec podTemplate(RenderInput input) {
    ResolvedController controller = input.controller();
    SortedMap<String, String> labels = new TreeMap<>(controller.pod().labels());
    labels.putAll(ControllerLabels.of(controller.name()));
    SortedMap<String, String> annotations = new TreeMap<>(controller.pod().annotations());
    annotations.put(RestartHash.ANNOTATION, RestartHash.of(input));
    return new PodTemplateSpecBuilder()
        .withNewMetadata().withLabels(labels).withAnnotations(annotations).endMetadata()
        .withSpec(podSpec(input))
        .build();
  }

  static PodSpec podSpec(RenderInput input) {
    ResolvedController controller = input.controller();
    PodSpec spec = new PodSpecBuilder()
        .withServiceAccountName(input.names().serviceAccount())
        .withTerminationGracePeriodSeconds(terminationGracePeriodSeconds(controller))
        // Service environment variables would crowd Jenkins' environment and leak neighbours' addresses
        .withEnableServiceLinks(false)
        .withSecurityContext(JenkinsPodSecurity.pod())
        .withInitContainers(MiteSidecar.render(controller, input.channel()), PluginsInitContainer.render(input))
        .withContainers(JenkinsContainer.render(input))
        .withVolumes(volumes(input))
        .build();
    return controller.pod().spec().map(customisation -> PodSpecMerge.apply(spec, customisation)).orElse(spec);
  }

  /** The drain timeout plus the margin Jenkins and the mite need to stop after it. */
  static long terminationGracePeriodSeconds(ResolvedController controller) {
    return (long) controller.drainTimeoutSeconds() + TERMINATION_GRACE_MARGIN_SECONDS;
  }

  private static java.util.List<io.fabric8.kubernetes.api.model.Volume> volumes(RenderInput input) {
    java.util.List<io.fabric8.kubernetes.api.model.Volume> volumes = new java.util.ArrayList<>(PodVolumes.of(input.names()));
    input.managedUpdateCenter().ifPresent(uc -> volumes.add(PodVolumes.updateCenterCa(input.names())));
    return volumes;
  }

  private static PersistentVolumeClaim jenkinsHome(ResolvedController controller) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata().withName(PodVolumes.JENKINS_HOME_VOLUME).withLabels(ControllerLabels.of(controller.name()))
        .endMetadata()
        .withNewSpec()
        .withAccessModes("ReadWriteOnce")
        .withStorageClassName(controller.persistence().storageClassName().orElse(null))
        .withNewResources().addToRequests("storage", new Quantity(controller.persistence().size())).endResources()
        .endSpec()
        .build();
  }
}
