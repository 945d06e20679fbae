package dev.varroa.benchmarks.channel;

import dev.varroa.mite.MiteSettings;
import dev.varroa.operator.render.MiteSidecar;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;
import dev.varroa.testfixtures.process.LoopbackPort;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * One Jenkins pod as the mite sees it, where no kubelet runs: the folders the operator's volumes would
 * mount (bootstrap token and CA, identity, JCasC, rendered JCasC seed, secrets, loopback), the Jenkins
 * contract fixture on loopback, and the mite's environment as MiteSidecar renders it, pointed at them.
 */
public final class MitePod implements AutoCloseable {

  private static final String SEED_CASC = "jenkins:\n  systemMessage: \"seeded before the channel was up\"\n";

  private final ControllerIdentity controller;
  private final Path root;
  private final JenkinsFixture jenkins;
  private final int healthPort;

  private MitePod(ControllerIdentity controller, Path root, JenkinsFixture jenkins, int healthPort) {
    this.controller = controller;
    this.root = root;
    this.jenkins = jenkins;
    this.healthPort = healthPort;
  }

  /** Lays out the pod's folders with the bootstrap token and CA, and starts the Jenkins fixture. */
  public static MitePod prepare(ControllerIdentity controller, Path root, String bootstrapToken, String caPem)
      throws IOException {
    for (String dir : new String[] {"bootstrap", "identity", "casc", "casc-rendered", "secrets", "loopback"}) {
      Files.createDirectories(root.resolve(dir));
    }
    Files.writeString(root.resolve("bootstrap/token"), bootstrapToken, StandardCharsets.US_ASCII);
    Files.writeString(root.resolve("bootstrap/ca.crt"), caPem, StandardCharsets.US_ASCII);
    Files.writeString(root.resolve("casc-rendered/jenkins.yaml"), SEED_CASC, StandardCharsets.UTF_8);
    JenkinsFixture jenkins = JenkinsFixture.start();
    jenkins.cascDirectory(root.resolve("casc"));
    // The Jenkins token here is a stand-in, not a JWT the realm could verify; the fixture takes any.
    jenkins.bearerTokenAccepted(token -> true);
    return new MitePod(controller, root, jenkins, LoopbackPort.pickFree());
  }

  public ControllerIdentity controller() {
    return controller;
  }

  public JenkinsFixture jenkins() {
    return jenkins;
  }

  /**
   * The mite container's environment: what MiteSidecar renders, with paths pointed at this pod's
   * folders, the gateway on loopback, and JAVA_TOOL_OPTIONS and MALLOC_ARENA_MAX exactly as rendered.
   */
  public Map<String, String> environment(String gatewayEndpoint) {
    Map<String, String> env = new HashMap<>();
    env.put(MiteSidecar.ENV_CONTROLLER_NAMESPACE, controller.namespace());
    env.put(MiteSidecar.ENV_CONTROLLER_NAME, controller.name());
    env.put(MiteSidecar.ENV_CONTROLLER_UID, controller.uid());
    env.put(MiteSidecar.ENV_POD_NAME, controller.name() + "-0");
    env.put(MiteSidecar.ENV_GATEWAY_ENDPOINT, gatewayEndpoint);
    env.put(MiteSidecar.ENV_BOOTSTRAP_TOKEN_FILE, root.resolve("bootstrap/token").toString());
    env.put(MiteSidecar.ENV_CA_FILE, root.resolve("bootstrap/ca.crt").toString());
    env.put(MiteSidecar.ENV_IDENTITY_DIR, root.resolve("identity").toString());
    env.put(MiteSidecar.ENV_JENKINS_URL, jenkins.url().toString());
    env.put(MiteSidecar.ENV_CASC_DIR, root.resolve("casc").toString());
    env.put(MiteSidecar.ENV_CASC_SEED_DIR, root.resolve("casc-rendered").toString());
    env.put(MiteSidecar.ENV_SECRETS_DIR, root.resolve("secrets").toString());
    env.put(MiteSidecar.ENV_LOOPBACK_DIR, root.resolve("loopback").toString());
    env.put(MiteSettings.ENV_HEALTH_PORT, Integer.toString(healthPort));
    // many mites share this machine: each takes a free loopback port instead of 9095
    env.put(MiteSettings.ENV_LOOPBACK_PORT, "0");
    env.put("JAVA_TOOL_OPTIONS", MiteSidecar.JAVA_TOOL_OPTIONS);
    env.put("MALLOC_ARENA_MAX", MiteSidecar.MALLOC_ARENA_MAX);
    return env;
  }

  @Override
  public void close() {
    jenkins.close();
  }
}
