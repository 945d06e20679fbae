package dev.varroa.operator.render;

import dev.varroa.operator.render.resolve.CellArtifactSettings;
import dev.varroa.operator.render.resolve.ResolvedController;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import java.util.ArrayList;
import java.util.List;

/** The Jenkins container: image, ports, the environment JCasC and the Varroa plugin read, probes and the drain hook. */
public final class JenkinsContainer {
  public static final String CONTAINER_NAME = "jenkins";
  public static final int HTTP_PORT = 8080;
  public static final String HTTP_PORT_NAME = "http";
  public static final int AGENT_PORT = 50000;
  public static final String AGENT_PORT_NAME = "agent";
  /** Jenkins is configured by JCasC, never by the setup wizard. */
  public static final String SETUP_WIZARD_OFF = "-Djenkins.install.runSetupWizard=false";
  /** The inbound agent port the direct tunnel and the Service's agent port point at. */
  public static final String AGENT_PORT_OPTION = "-Djenkins.model.Jenkins.slaveAgentPort=" + AGENT_PORT;
  /** Jenkins' default update site is {@code <this>update-center.json}: a managed UpdateCenter replaces the project's. */
  public static final String UPDATE_CENTER_URL_OPTION = "-Dhudson.model.UpdateCenter.updateCenterUrl=";
  public static final String PROBE_PATH = "/login";
  /** Where the Varroa security realm reads the token verification key. */
  public static final String ENV_JWT_PUBLIC_KEY_FILE = "VARROA_JWT_PUBLIC_KEY_FILE";
  /** Plugin loading and the first JCasC apply may take minutes: 60 x 10 s before the kubelet gives up. */
  public static final int STARTUP_PROBE_PERIOD_SECONDS = 10;
  public static final int STARTUP_PROBE_FAILURE_THRESHOLD = 60;
  public static final int PROBE_PERIOD_SECONDS = 10;
  public static final int PROBE_TIMEOUT_SECONDS = 5;
  public static final int READINESS_FAILURE_THRESHOLD = 3;
  /** A busy Jenkins may answer slowly; restart only after a full minute without /login. */
  public static final int LIVENESS_FAILURE_THRESHOLD = 6;
  /** Tells the Varroa plugin to hold queued builds until the ledger grants them (spec.buildClaims.gate). */
  public static final String ENV_CLAIM_GATE = "VARROA_CLAIM_GATE";
  /** The drain call ends this long before the kubelet's SIGKILL, so Jenkins still gets its SIGTERM. */
  public static final int PRESTOP_SLACK_SECONDS = 5;

  private JenkinsContainer() {}

  static Container render(RenderInput input) {
    ResolvedController controller = input.controller();
    ResolvedController.Jenkins jenkins = controller.jenkins();
    return new ContainerBuilder()
        .withName(CONTAINER_NAME)
        .withImage(input.jenkinsImage())
        .withImagePullPolicy(jenkins.imagePullPolicy().orElse(null))
        .addNewPort().withName(HTTP_PORT_NAME).withContainerPort(HTTP_PORT).withProtocol("TCP").endPort()
        .addNewPort().withName(AGENT_PORT_NAME).withContainerPort(AGENT_PORT).withProtocol("TCP").endPort()
        .withEnv(env(input))
        .withResources(jenkins.resources().map(JenkinsContainer::copy).orElse(null))
        .withStartupProbe(probe(STARTUP_PROBE_PERIOD_SECONDS, STARTUP_PROBE_FAILURE_THRESHOLD))
        .withReadinessProbe(probe(PROBE_PERIOD_SECONDS, READINESS_FAILURE_THRESHOLD))
        .withLivenessProbe(probe(PROBE_PERIOD_SECONDS, LIVENESS_FAILURE_THRESHOLD))
        // an exec hook runs inside the pod: drain is reachable on loopback only, never from the pod IP
        .withNewLifecycle().withNewPreStop().withNewExec().withCommand(preStopCommand(controller))
        .endExec().endPreStop().endLifecycle()
        .withVolumeMounts(mounts(input))
        .withSecurityContext(JenkinsPodSecurity.container())
        .build();
  }

  private static List<io.fabric8.kubernetes.api.model.VolumeMount> mounts(RenderInput input) {
    List<io.fabric8.kubernetes.api.model.VolumeMount> mounts = new ArrayList<>(List.of(
        PodVolumes.mount(PodVolumes.JENKINS_HOME_VOLUME, PodVolumes.JENKINS_HOME, false),
        PodVolumes.mount(PodVolumes.CASC_VOLUME, PodVolumes.CASC_PATH, true),
        PodVolumes.mount(PodVolumes.LOOPBACK_VOLUME, PodVolumes.LOOPBACK_PATH, true),
        PodVolumes.mount(PodVolumes.SECRETS_VOLUME, PodVolumes.SECRETS_PATH, true),
        PodVolumes.mount(PodVolumes.JWT_VOLUME, PodVolumes.JWT_PATH, true)));
    // inside JENKINS_HOME, after its mount: Jenkins lists this folder on every signature check
    input.managedUpdateCenter().ifPresent(uc -> mounts.add(
        PodVolumes.mount(PodVolumes.UPDATE_CENTER_CA_VOLUME, PodVolumes.UPDATE_CENTER_CA_PATH, true)));
    return mounts;
  }

  /**
   * The preStop hook: POST /drain on the mite's loopback listener with the loopback token, as sh and curl of the
   * Jenkins image run it. The token goes to curl on standard input, never on a command line another process could
   * read. A missing token or a failed call is logged (hook event and Jenkins' log) and the pod stops anyway.
   */
  static List<String> preStopCommand(ResolvedController controller) {
    long maxTime = StatefulSetRenderer.terminationGracePeriodSeconds(controller) - PRESTOP_SLACK_SECONDS;
    // $(cat ...) survives Kubernetes' $(VAR) expansion, which replaces defined variable names only
    String script = String.join("\n",
        "log() { echo \"varroa-prestop: $*\" >&2; echo \"varroa-prestop: $*\" 2>/dev/null >/proc/1/fd/2; }",
        "token_file=" + MiteSidecar.LOOPBACK_TOKEN_FILE,
        "if [ ! -s \"$token_file\" ]; then",
        "  log \"no loopback token at $token_file: Jenkins stops without a drain\"; exit 1",
        "fi",
        "printf 'header = \"Authorization: Bearer %s\"\\n' \"$(cat \"$token_file\")\" | curl --config - -sS -f -o /dev/null"
            + " --max-time " + maxTime + " -X POST " + MiteSidecar.LOOPBACK_DRAIN_URL,
        "status=$?",
        "if [ \"$status\" -ne 0 ]; then",
        "  log \"drain call to " + MiteSidecar.LOOPBACK_DRAIN_URL + " failed (curl exit $status): Jenkins stops without"
            + " a finished drain\"; exit 1",
        "fi");
    return List.of("sh", "-c", script);
  }

  /** The archived-artifact settings of a cell, as the plugin reads them (plugin ArtifactStoreSettings). */
  static final String ENV_ARTIFACTS_URL = "VARROA_ARTIFACTS_URL";
  static final String ENV_ARTIFACTS_REGION = "VARROA_ARTIFACTS_REGION";
  static final String ENV_ARTIFACTS_PREFIX = "VARROA_ARTIFACTS_PREFIX";
  static final String ENV_AWS_ACCESS_KEY_ID = "AWS_ACCESS_KEY_ID";
  static final String ENV_AWS_SECRET_ACCESS_KEY = "AWS_SECRET_ACCESS_KEY";
  /** The keys of the per-pool artifact Secret (seed 002). */
  public static final String ARTIFACT_ACCESS_KEY = "access-key-id";
  public static final String ARTIFACT_SECRET_KEY = "secret-access-key";

  /** Varroa's variables (dev.varroa.bundle.JenkinsEnvironment.VARIABLES and JAVA_OPTS), then jenkins.env. */
  static List<EnvVar> env(RenderInput input) {
    ResolvedController controller = input.controller();
    String javaOpts = SETUP_WIZARD_OFF + " " + AGENT_PORT_OPTION
        + input.managedUpdateCenter().map(uc -> " " + UPDATE_CENTER_URL_OPTION + uc.siteBaseUrl()).orElse("")
        + controller.jenkins().javaOpts().filter(o -> !o.isBlank()).map(o -> " " + o).orElse("");
    List<EnvVar> env = new ArrayList<>(List.of(
        new EnvVar("JAVA_OPTS", javaOpts, null),
        new EnvVar("JENKINS_HOME", PodVolumes.JENKINS_HOME, null),
        new EnvVar("CASC_JENKINS_CONFIG", PodVolumes.CASC_PATH, null),
        new EnvVar("JENKINS_URL", jenkinsUrl(input), null),
        new EnvVar("CONTROLLER_NAME", controller.name(), null),
        new EnvVar("CONTROLLER_NAMESPACE", controller.namespace(), null),
        new EnvVar("AGENTS_NAMESPACE", controller.agents().namespace(), null),
        // the Varroa security realm verifies the mite's token for exactly this controller
        new EnvVar(MiteSidecar.ENV_CONTROLLER_NAMESPACE, controller.namespace(), null),
        new EnvVar(MiteSidecar.ENV_CONTROLLER_NAME, controller.name(), null),
        new EnvVar(MiteSidecar.ENV_CONTROLLER_UID, controller.uid(), null),
        new EnvVar(ENV_JWT_PUBLIC_KEY_FILE, PodVolumes.JWT_PATH + "/" + PodVolumes.JWT_PUBLIC_KEY_FILE, null)));
    if (controller.claimGate()) {
      env.add(new EnvVar(ENV_CLAIM_GATE, "true", null));
    }
    input.cell().filter(cell -> !cell.pool().isEmpty()).ifPresent(cell -> input.installation().cellArtifacts()
        .ifPresent(artifacts -> env.addAll(artifactEnv(artifacts, controller, cell.pool()))));
    controller.jenkins().env().forEach(e -> env.add(new EnvVarBuilder(e).build()));
    return env;
  }

  /** Where a cell writes archived artifacts: its own prefix, with its pool's credential (docs/cells.md). */
  static List<EnvVar> artifactEnv(CellArtifactSettings artifacts, ResolvedController cell, String pool) {
    String prefix;
    try {
      prefix = artifacts.cellPrefix(cell.namespace(), pool, cell.name());
    } catch (IllegalArgumentException e) {
      // not a name the pool gives (spec.cell written by hand): no prefix to confine it to, so no artifact store
      return List.of();
    }
    List<EnvVar> env = new ArrayList<>(List.of(
        new EnvVar(ENV_ARTIFACTS_URL, artifacts.bucketUrl(), null),
        new EnvVar(ENV_ARTIFACTS_REGION, artifacts.region(), null),
        new EnvVar(ENV_ARTIFACTS_PREFIX, prefix, null)));
    if (artifacts.artifactSecret().isPresent()) {
      String secret = CellArtifactSettings.copyName(pool);
      env.add(new EnvVarBuilder().withName(ENV_AWS_ACCESS_KEY_ID).withNewValueFrom().withNewSecretKeyRef(
          ARTIFACT_ACCESS_KEY, secret, false).endValueFrom().build());
      env.add(new EnvVarBuilder().withName(ENV_AWS_SECRET_ACCESS_KEY).withNewValueFrom().withNewSecretKeyRef(
          ARTIFACT_SECRET_KEY, secret, false).endValueFrom().build());
    }
    return env;
  }

  /** Where people reach Jenkins: the Ingress host when there is one, else the Service. */
  public static String jenkinsUrl(RenderInput input) {
    ResolvedController.Ingress ingress = input.controller().ingress();
    if (ingress.enabled() && ingress.host().isPresent()) {
      return (ingress.tlsSecretName().isPresent() ? "https://" : "http://") + ingress.host().get() + "/";
    }
    return serviceUrl(input);
  }

  /** Jenkins inside the cluster, as agents reach it whatever the Ingress says. */
  public static String serviceUrl(RenderInput input) {
    return "http://" + serviceHost(input) + ":" + HTTP_PORT + "/";
  }

  /** {@code <service>.<namespace>.svc}. */
  public static String serviceHost(RenderInput input) {
    return input.names().service() + "." + input.controller().namespace() + ".svc";
  }

  /** The address agents dial with the direct tunnel: the Service's agent port. */
  public static String directTunnel(RenderInput input) {
    return serviceHost(input) + ":" + AGENT_PORT;
  }

  static ResourceRequirements copy(ResourceRequirements resources) {
    return new ResourceRequirementsBuilder(resources).build();
  }

  private static Probe probe(int period, int failureThreshold) {
    return new ProbeBuilder()
        .withNewHttpGet().withPath(PROBE_PATH).withPort(new IntOrString(HTTP_PORT_NAME)).endHttpGet()
        .withPeriodSeconds(period)
        .withTimeoutSeconds(PROBE_TIMEOUT_SECONDS)
        .withFailureThreshold(failureThreshold)
        .build();
  }
}
