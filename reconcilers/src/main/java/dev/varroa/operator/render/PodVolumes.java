package dev.varroa.operator.render;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.List;

/** The volumes of a Jenkins pod, where each is mounted, and why. */
public final class PodVolumes {
  /** JENKINS_HOME on the volumeClaimTemplate: secrets/ and nodes/ survive any restart (seed 003). */
  public static final String JENKINS_HOME_VOLUME = "jenkins-home";
  public static final String JENKINS_HOME = "/var/jenkins_home";
  /** The rendered JCasC, a folder because CASC_JENKINS_CONFIG reads every file in it. */
  public static final String CASC_VOLUME = "jenkins-casc";
  public static final String CASC_PATH = JENKINS_HOME + "/casc";
  /** plugins.txt, read only by the plugins init container. */
  public static final String PLUGINS_VOLUME = "jenkins-plugins";
  public static final String PLUGINS_PATH = "/var/varroa/plugins";
  /** The mite writes its loopback token here for the plugin (seed 000: /var/run/varroa/loopback-token). */
  public static final String LOOPBACK_VOLUME = "varroa-loopback";
  public static final String LOOPBACK_PATH = "/var/run/varroa";
  /** Secret values as files, written by the mite from desired state, read by JCasC; memory only, never on disk. */
  public static final String SECRETS_VOLUME = "varroa-secrets";
  public static final String SECRETS_PATH = "/run/secrets";
  public static final Quantity SECRETS_SIZE_LIMIT = new Quantity("8Mi");

  private PodVolumes() {}

  /** Every pod volume except JENKINS_HOME, which the volumeClaimTemplate supplies. */
  static List<Volume> of(ControllerNames names) {
    return List.of(
        new VolumeBuilder().withName(CASC_VOLUME).withNewConfigMap().withName(names.cascConfigMap()).endConfigMap()
            .build(),
        new VolumeBuilder().withName(PLUGINS_VOLUME).withNewConfigMap().withName(names.pluginsConfigMap())
            .endConfigMap().build(),
        new VolumeBuilder().withName(LOOPBACK_VOLUME).withNewEmptyDir().endEmptyDir().build(),
        new VolumeBuilder().withName(SECRETS_VOLUME).withNewEmptyDir().withMedium("Memory")
            .withSizeLimit(SECRETS_SIZE_LIMIT).endEmptyDir().build());
  }

  static VolumeMount mount(String volume, String path, boolean readOnly) {
    return new VolumeMountBuilder().withName(volume).withMountPath(path).withReadOnly(readOnly ? Boolean.TRUE : null)
        .build();
  }
}
