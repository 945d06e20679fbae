package dev.varroa.operator.render;

import dev.varroa.operator.render.naming.ControllerNames;
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
  /**
   * The JCasC folder CASC_JENKINS_CONFIG reads: the mite writes it from desired state, so a JCasC-only
   * change reaches Jenkins without touching the pod.
   */
  public static final String CASC_VOLUME = "jenkins-casc";
  public static final String CASC_PATH = JENKINS_HOME + "/casc";
  /** The same folder as the mite sees it, writable. */
  public static final String MITE_CASC_PATH = "/var/varroa/casc";
  /** The last rendered JCasC (no secrets), which the mite seeds the folder with so Jenkins boots configured. */
  public static final String CASC_RENDERED_VOLUME = "jenkins-casc-rendered";
  public static final String CASC_RENDERED_PATH = "/var/varroa/casc-rendered";
  /** The mite's key and client certificate: memory only, kept across a container restart, not a pod restart. */
  public static final String MITE_IDENTITY_VOLUME = "varroa-mite-identity";
  public static final String MITE_IDENTITY_PATH = "/var/run/varroa-mite";
  public static final Quantity MITE_IDENTITY_SIZE_LIMIT = new Quantity("1Mi");
  /** The bootstrap token (a Secret the operator mints) and the CA the mite trusts the gateway by. */
  public static final String MITE_BOOTSTRAP_VOLUME = "varroa-mite-bootstrap";
  public static final String MITE_BOOTSTRAP_PATH = "/var/run/varroa-bootstrap";
  public static final String BOOTSTRAP_TOKEN_FILE = "token";
  public static final String BOOTSTRAP_CA_FILE = "ca.crt";
  /** The public key the Varroa security realm verifies the mite's Jenkins token with. */
  public static final String JWT_VOLUME = "varroa-jwt";
  public static final String JWT_PATH = "/var/run/varroa-jwt";
  public static final String JWT_PUBLIC_KEY_FILE = "public.pem";
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
  /**
   * The CA a managed UpdateCenter signs update-center.json with, where Jenkins' signature check looks
   * for trusted roots besides its own: {@code $JENKINS_HOME/update-center-rootCAs/}.
   */
  public static final String UPDATE_CENTER_CA_VOLUME = "update-center-ca";
  public static final String UPDATE_CENTER_CA_PATH = JENKINS_HOME + "/update-center-rootCAs";
  public static final String UPDATE_CENTER_CA_FILE = "varroa-update-center.crt";

  private PodVolumes() {}

  /** Every pod volume except JENKINS_HOME, which the volumeClaimTemplate supplies. */
  static List<Volume> of(ControllerNames names) {
    return List.of(
        new VolumeBuilder().withName(CASC_VOLUME).withNewEmptyDir().endEmptyDir().build(),
        new VolumeBuilder().withName(CASC_RENDERED_VOLUME).withNewConfigMap().withName(names.cascConfigMap())
            .endConfigMap().build(),
        new VolumeBuilder().withName(MITE_IDENTITY_VOLUME).withNewEmptyDir().withMedium("Memory")
            .withSizeLimit(MITE_IDENTITY_SIZE_LIMIT).endEmptyDir().build(),
        // the token Secret is optional: the pod may start before the operator's first mint lands
        new VolumeBuilder().withName(MITE_BOOTSTRAP_VOLUME).withNewProjected()
            .addNewSource().withNewSecret().withName(names.miteTokenSecret()).withOptional(true).endSecret().endSource()
            .addNewSource().withNewConfigMap().withName(names.channelConfigMap())
            .addNewItem().withKey(ChannelConfigMapRenderer.CA_KEY).withPath(BOOTSTRAP_CA_FILE).endItem()
            .endConfigMap().endSource()
            .endProjected().build(),
        new VolumeBuilder().withName(JWT_VOLUME).withNewConfigMap().withName(names.channelConfigMap())
            .addNewItem().withKey(ChannelConfigMapRenderer.JWT_PUBLIC_KEY).withPath(JWT_PUBLIC_KEY_FILE).endItem()
            .endConfigMap().build(),
        new VolumeBuilder().withName(PLUGINS_VOLUME).withNewConfigMap().withName(names.pluginsConfigMap())
            .endConfigMap().build(),
        new VolumeBuilder().withName(LOOPBACK_VOLUME).withNewEmptyDir().endEmptyDir().build(),
        new VolumeBuilder().withName(SECRETS_VOLUME).withNewEmptyDir().withMedium("Memory")
            .withSizeLimit(SECRETS_SIZE_LIMIT).endEmptyDir().build());
  }

  /** The managed UpdateCenter's CA, from the Controller's own ConfigMap. */
  static Volume updateCenterCa(ControllerNames names) {
    return new VolumeBuilder().withName(UPDATE_CENTER_CA_VOLUME).withNewConfigMap()
        // optional: a pod must not wait on it; without it Jenkins' signature check names the missing root
        .withName(names.updateCenterCaConfigMap()).withOptional(true).endConfigMap().build();
  }

  static VolumeMount mount(String volume, String path, boolean readOnly) {
    return new VolumeMountBuilder().withName(volume).withMountPath(path).withReadOnly(readOnly ? Boolean.TRUE : null)
        .build();
  }
}
