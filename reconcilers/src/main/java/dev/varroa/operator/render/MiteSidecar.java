package dev.varroa.operator.render;

import dev.varroa.operator.render.resolve.ResolvedController;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import java.util.List;

/**
 * The mite as a native sidecar: an init container with {@code restartPolicy: Always}, so it starts
 * before Jenkins, outlives Jenkins' preStop drain, and stops last. Its startup probe holds Jenkins
 * back until the first desired state (secret files included) is applied, or the bounded wait passes.
 */
public final class MiteSidecar {
  public static final String CONTAINER_NAME = "mite";
  /** The mite's health listener: probes only (/readyz, /healthz); the kubelet calls it at the pod IP. */
  public static final int HEALTH_PORT = 9096;
  public static final String HEALTH_PORT_NAME = "mite-health";
  /** 200 once the first desired state is applied, or once {@link #STARTUP_WAIT_SECONDS} have passed. */
  public static final String READY_PATH = "/readyz";
  /** The mite's loopback listener (seed 000: 127.0.0.1:9095), which nothing outside the pod reaches. */
  public static final int LOOPBACK_PORT = 9095;
  /** Every loopback call carries this file's token as its bearer. */
  public static final String LOOPBACK_TOKEN_FILE = PodVolumes.LOOPBACK_PATH + "/loopback-token";
  /** POST only, on the loopback listener: puts Jenkins in quiet-down, answers when builds finished or the drain timeout expired. */
  public static final String DRAIN_PATH = "/drain";
  public static final String LOOPBACK_DRAIN_URL = "http://127.0.0.1:" + LOOPBACK_PORT + DRAIN_PATH;
  /** The bounded wait for the first desired state; the mite turns ready by itself after it. */
  public static final int STARTUP_WAIT_SECONDS = 600;
  public static final int STARTUP_PROBE_PERIOD_SECONDS = 5;
  /** Slack over the bounded wait so the kubelet never restarts a mite that is about to release Jenkins. */
  public static final int STARTUP_PROBE_MARGIN_SECONDS = 60;
  public static final int STARTUP_PROBE_FAILURE_THRESHOLD =
      (STARTUP_WAIT_SECONDS + STARTUP_PROBE_MARGIN_SECONDS) / STARTUP_PROBE_PERIOD_SECONDS;

  public static final String ENV_CONTROLLER_NAME = "VARROA_CONTROLLER_NAME";
  public static final String ENV_CONTROLLER_NAMESPACE = "VARROA_CONTROLLER_NAMESPACE";
  public static final String ENV_DRAIN_TIMEOUT_SECONDS = "VARROA_DRAIN_TIMEOUT_SECONDS";
  public static final String ENV_STARTUP_WAIT_SECONDS = "VARROA_STARTUP_WAIT_SECONDS";
  public static final String ENV_JENKINS_URL = "VARROA_JENKINS_URL";
  public static final String ENV_CONTROLLER_UID = "VARROA_CONTROLLER_UID";
  public static final String ENV_POD_NAME = "VARROA_POD_NAME";
  public static final String ENV_GATEWAY_ENDPOINT = "VARROA_GATEWAY_ENDPOINT";
  public static final String ENV_BOOTSTRAP_TOKEN_FILE = "VARROA_BOOTSTRAP_TOKEN_FILE";
  public static final String ENV_CA_FILE = "VARROA_CA_FILE";
  public static final String ENV_IDENTITY_DIR = "VARROA_IDENTITY_DIR";
  public static final String ENV_CASC_DIR = "VARROA_CASC_DIR";
  public static final String ENV_CASC_SEED_DIR = "VARROA_CASC_SEED_DIR";
  public static final String ENV_SECRETS_DIR = "VARROA_SECRETS_DIR";
  public static final String ENV_LOOPBACK_DIR = "VARROA_LOOPBACK_DIR";
  /** A small fixed heap, one GC thread and C1 only keep the idle mite within its 96 MiB budget (docs/benchmarks.md). */
  public static final String JAVA_TOOL_OPTIONS = "-XX:+UseSerialGC -Xms8m -Xmx48m -Xss256k -XX:TieredStopAtLevel=1"
      + " -XX:ReservedCodeCacheSize=16m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30";
  /** glibc's per-thread malloc arenas would otherwise add tens of MiB of resident memory. */
  public static final String MALLOC_ARENA_MAX = "2";
  /** Jenkins as the mite reaches it: over localhost, never through the Service. */
  public static final String LOCAL_JENKINS_URL = "http://127.0.0.1:" + JenkinsContainer.HTTP_PORT + "/";
  /** Native sidecar marker on an init container. */
  static final String RESTART_ALWAYS = "Always";

  private MiteSidecar() {}

  static Container render(ResolvedController controller, ChannelEndpoint channel) {
    ResolvedController.Mite mite = controller.mite();
    return new ContainerBuilder()
        .withName(CONTAINER_NAME)
        .withImage(mite.image())
        .withImagePullPolicy(mite.imagePullPolicy().orElse(null))
        .withRestartPolicy(RESTART_ALWAYS)
        .addNewPort().withName(HEALTH_PORT_NAME).withContainerPort(HEALTH_PORT).withProtocol("TCP").endPort()
        .withEnv(List.of(
            new EnvVar(ENV_CONTROLLER_NAME, controller.name(), null),
            new EnvVar(ENV_CONTROLLER_NAMESPACE, controller.namespace(), null),
            new EnvVar(ENV_DRAIN_TIMEOUT_SECONDS, Integer.toString(controller.drainTimeoutSeconds()), null),
            new EnvVar(ENV_STARTUP_WAIT_SECONDS, Integer.toString(STARTUP_WAIT_SECONDS), null),
            new EnvVar(ENV_JENKINS_URL, LOCAL_JENKINS_URL, null),
            new EnvVar(ENV_CONTROLLER_UID, controller.uid(), null),
            new EnvVarBuilder().withName(ENV_POD_NAME).withNewValueFrom().withNewFieldRef()
                .withFieldPath("metadata.name").endFieldRef().endValueFrom().build(),
            new EnvVar(ENV_GATEWAY_ENDPOINT, channel.gatewayEndpoint(), null),
            new EnvVar(ENV_BOOTSTRAP_TOKEN_FILE, PodVolumes.MITE_BOOTSTRAP_PATH + "/" + PodVolumes.BOOTSTRAP_TOKEN_FILE, null),
            new EnvVar(ENV_CA_FILE, PodVolumes.MITE_BOOTSTRAP_PATH + "/" + PodVolumes.BOOTSTRAP_CA_FILE, null),
            new EnvVar(ENV_IDENTITY_DIR, PodVolumes.MITE_IDENTITY_PATH, null),
            new EnvVar(ENV_CASC_DIR, PodVolumes.MITE_CASC_PATH, null),
            new EnvVar(ENV_CASC_SEED_DIR, PodVolumes.CASC_RENDERED_PATH, null),
            new EnvVar(ENV_SECRETS_DIR, PodVolumes.SECRETS_PATH, null),
            new EnvVar(ENV_LOOPBACK_DIR, PodVolumes.LOOPBACK_PATH, null),
            new EnvVar("JAVA_TOOL_OPTIONS", JAVA_TOOL_OPTIONS, null),
            new EnvVar("MALLOC_ARENA_MAX", MALLOC_ARENA_MAX, null)))
        .withResources(mite.resources().map(JenkinsContainer::copy).orElse(null))
        .withStartupProbe(new ProbeBuilder()
            .withNewHttpGet().withPath(READY_PATH).withPort(new IntOrString(HEALTH_PORT_NAME)).endHttpGet()
            .withPeriodSeconds(STARTUP_PROBE_PERIOD_SECONDS)
            .withFailureThreshold(STARTUP_PROBE_FAILURE_THRESHOLD)
            .build())
        .withVolumeMounts(
            PodVolumes.mount(PodVolumes.LOOPBACK_VOLUME, PodVolumes.LOOPBACK_PATH, false),
            PodVolumes.mount(PodVolumes.SECRETS_VOLUME, PodVolumes.SECRETS_PATH, false),
            PodVolumes.mount(PodVolumes.CASC_VOLUME, PodVolumes.MITE_CASC_PATH, false),
            PodVolumes.mount(PodVolumes.CASC_RENDERED_VOLUME, PodVolumes.CASC_RENDERED_PATH, true),
            PodVolumes.mount(PodVolumes.MITE_IDENTITY_VOLUME, PodVolumes.MITE_IDENTITY_PATH, false),
            PodVolumes.mount(PodVolumes.MITE_BOOTSTRAP_VOLUME, PodVolumes.MITE_BOOTSTRAP_PATH, true))
        .withSecurityContext(JenkinsPodSecurity.container())
        .build();
  }
}
