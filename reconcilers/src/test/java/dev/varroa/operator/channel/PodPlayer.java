package dev.varroa.operator.channel;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.mite.Mite;
import dev.varroa.mite.MiteSettings;
import dev.varroa.operator.controller.KubeletStandIn;
import dev.varroa.operator.render.ChannelConfigMapRenderer;
import dev.varroa.operator.render.MiteSidecar;
import dev.varroa.operator.render.PodVolumes;
import dev.varroa.operator.render.naming.ControllerNames;
import dev.varroa.plugin.auth.JenkinsTokenVerifier;
import dev.varroa.plugin.auth.PublicKeyRing;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;
import dev.varroa.testfixtures.kube.csi.CsiStandIn;
import dev.varroa.testfixtures.process.LoopbackPort;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Plays one Jenkins pod where no kubelet runs: creates the pod from its StatefulSet, materialises the
 * volumes the mite and Jenkins mount (token Secret, channel and JCasC ConfigMaps, memory folders) in a
 * local folder, starts the Jenkins contract fixture with the Varroa realm's token verifier, and starts
 * a real mite with the environment the operator rendered, paths pointed at that folder.
 */
public final class PodPlayer implements AutoCloseable {

  /** Starts a mite from its environment: in this JVM, or as its own process. */
  @FunctionalInterface
  public interface MiteRunner {
    AutoCloseable start(Map<String, String> env) throws Exception;

    static MiteRunner inProcess() {
      return env -> Mite.start(MiteSettings.fromEnv(env));
    }

    /** A `java` process on the given classpath, its output appended to the log file. */
    static MiteRunner process(String classpath, Path log) {
      return env -> {
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", classpath, "dev.varroa.mite.MiteMain");
        builder.environment().putAll(env);
        builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        Process process = builder.start();
        return () -> {
          process.destroy();
          process.waitFor();
        };
      };
    }
  }

  private final KubernetesClient client;
  private final Controller controller;
  private final Path root;
  private final ControllerNames names;
  private JenkinsFixture jenkins;
  private CsiStandIn csi;
  private AutoCloseable mite;
  private MiteRunner runner;
  private Pod pod;
  private int loopbackPort;

  public PodPlayer(KubernetesClient client, Controller controller, Path root) {
    this.client = client;
    this.controller = controller;
    this.root = root;
    this.names = ControllerNames.of(controller.getMetadata().getName(), controller.getMetadata().getUid());
  }

  /**
   * Lets the CSI stand-in bind the pod's claims and starts Jenkins on the JENKINS_HOME claim's folder, so what Jenkins
   * writes there outlives this pod as it would on a real volume.
   */
  public PodPlayer withHomeOn(CsiStandIn provisioner) {
    this.csi = provisioner;
    return this;
  }

  /** Whether the operator has produced what the pod needs: StatefulSet, channel ConfigMap and bootstrap token. */
  public boolean podCanStart() {
    return statefulSet() != null && configMap(names.channelConfigMap()) != null
        && secret(names.miteTokenSecret()) != null && configMap(names.cascConfigMap()) != null;
  }

  /** What a test arranges on the Jenkins fixture before the mite starts. */
  @FunctionalInterface
  public interface BeforeMite {
    void arrange(PodPlayer pod) throws Exception;
  }

  /** Creates the pod, its volumes, the Jenkins fixture and the mite. Call once {@link #podCanStart()}. */
  public PodPlayer start(MiteRunner runner, BeforeMite beforeMite) throws Exception {
    StatefulSet sts = statefulSet();
    KubeletStandIn kubelet = new KubeletStandIn(client, csi == null);
    pod = kubelet.createPod(sts);
    for (String dir : List.of("bootstrap", "identity", "casc", "casc-rendered", "secrets", "loopback", "jwt")) {
      Files.createDirectories(root.resolve(dir));
    }
    refreshVolumes();
    if (csi == null) {
      jenkins = JenkinsFixture.start();
    } else {
      String namespace = controller.getMetadata().getNamespace();
      String claim = "jenkins-home-" + sts.getMetadata().getName() + "-0";
      csi.awaitBound(namespace, claim);
      jenkins = JenkinsFixture.startOn(csi.folder(namespace, claim));
    }
    jenkins.cascDirectory(root.resolve("casc"));
    JenkinsTokenVerifier verifier = new JenkinsTokenVerifier(
        new PublicKeyRing(root.resolve("jwt").resolve(PodVolumes.JWT_PUBLIC_KEY_FILE), Clock.systemUTC()),
        new dev.varroa.plugin.auth.ControllerIdentity(controller.getMetadata().getNamespace(),
            controller.getMetadata().getName(), controller.getMetadata().getUid()), Clock.systemUTC());
    jenkins.bearerTokenAccepted(token -> verifier.verify(token).accepted());
    beforeMite.arrange(this);
    this.runner = runner;
    mite = runner.start(miteEnvironment(sts));
    kubelet.ready(pod);
    return this;
  }

  /** Copies the current Secret and ConfigMap contents into the pod's folders, as the kubelet syncs volumes. */
  public void refreshVolumes() throws IOException {
    Secret token = secret(names.miteTokenSecret());
    if (token != null && token.getData() != null && token.getData().containsKey(PodVolumes.BOOTSTRAP_TOKEN_FILE)) {
      write(root.resolve("bootstrap").resolve(PodVolumes.BOOTSTRAP_TOKEN_FILE),
          Base64.getDecoder().decode(token.getData().get(PodVolumes.BOOTSTRAP_TOKEN_FILE)));
    }
    ConfigMap channel = configMap(names.channelConfigMap());
    if (channel != null) {
      write(root.resolve("bootstrap").resolve(PodVolumes.BOOTSTRAP_CA_FILE),
          channel.getData().get(ChannelConfigMapRenderer.CA_KEY).getBytes());
      write(root.resolve("jwt").resolve(PodVolumes.JWT_PUBLIC_KEY_FILE),
          channel.getData().get(ChannelConfigMapRenderer.JWT_PUBLIC_KEY).getBytes());
    }
    ConfigMap casc = configMap(names.cascConfigMap());
    if (casc != null) {
      for (Map.Entry<String, String> file : casc.getData().entrySet()) {
        write(root.resolve("casc-rendered").resolve(file.getKey()), file.getValue().getBytes());
      }
    }
  }

  private Map<String, String> miteEnvironment(StatefulSet sts) {
    Container rendered = sts.getSpec().getTemplate().getSpec().getInitContainers().stream()
        .filter(c -> c.getName().equals(MiteSidecar.CONTAINER_NAME)).findFirst().orElseThrow();
    Map<String, String> env = new HashMap<>();
    for (EnvVar var : rendered.getEnv()) {
      if (var.getValue() != null) {
        env.put(var.getName(), var.getValue());
      }
    }
    env.remove("JAVA_TOOL_OPTIONS");
    env.put(MiteSidecar.ENV_POD_NAME, pod.getMetadata().getName());
    env.put(MiteSidecar.ENV_JENKINS_URL, jenkins.url().toString());
    env.put(MiteSidecar.ENV_BOOTSTRAP_TOKEN_FILE, root.resolve("bootstrap").resolve(PodVolumes.BOOTSTRAP_TOKEN_FILE).toString());
    env.put(MiteSidecar.ENV_CA_FILE, root.resolve("bootstrap").resolve(PodVolumes.BOOTSTRAP_CA_FILE).toString());
    env.put(MiteSidecar.ENV_IDENTITY_DIR, root.resolve("identity").toString());
    env.put(MiteSidecar.ENV_CASC_DIR, root.resolve("casc").toString());
    env.put(MiteSidecar.ENV_CASC_SEED_DIR, root.resolve("casc-rendered").toString());
    env.put(MiteSidecar.ENV_SECRETS_DIR, root.resolve("secrets").toString());
    env.put(MiteSidecar.ENV_LOOPBACK_DIR, root.resolve("loopback").toString());
    env.put(MiteSettings.ENV_HEALTH_PORT, Integer.toString(LoopbackPort.pickFree()));
    // many mites share this machine: each takes a free loopback port instead of 9095, known here so a played
    // plugin can reach it
    loopbackPort = LoopbackPort.pickFree();
    env.put(MiteSettings.ENV_LOOPBACK_PORT, Integer.toString(loopbackPort));
    return env;
  }

  /** Where this pod's plugin reaches its mite: the loopback listener's URL. */
  public String loopbackUrl() {
    return "http://127.0.0.1:" + loopbackPort;
  }

  /** The loopback token the mite writes for the plugin. */
  public Path loopbackTokenFile() {
    return root.resolve("loopback").resolve("loopback-token");
  }

  public JenkinsFixture jenkins() {
    return jenkins;
  }

  public Pod pod() {
    return pod;
  }

  public Path secretsDirectory() {
    return root.resolve("secrets");
  }

  /** The mite, when it runs in this JVM. */
  public Optional<Mite> mite() {
    return mite instanceof Mite m ? Optional.of(m) : Optional.empty();
  }

  /** Stops the mite only, as a crashed container would; Jenkins stays. */
  public void stopMite() throws Exception {
    if (mite != null) {
      mite.close();
      mite = null;
    }
  }

  /** Restarts the mite in the same pod, as a container restart does: it keeps its key and certificate. */
  public void restartMite() throws Exception {
    stopMite();
    mite = runner.start(miteEnvironment(statefulSet()));
  }

  @Override
  public void close() throws Exception {
    stopMite();
    if (jenkins != null) {
      jenkins.close();
    }
  }

  private StatefulSet statefulSet() {
    return client.apps().statefulSets().inNamespace(controller.getMetadata().getNamespace())
        .withName(names.statefulSet()).get();
  }

  private ConfigMap configMap(String name) {
    return client.configMaps().inNamespace(controller.getMetadata().getNamespace()).withName(name).get();
  }

  private Secret secret(String name) {
    return client.secrets().inNamespace(controller.getMetadata().getNamespace()).withName(name).get();
  }

  private static void write(Path file, byte[] content) throws IOException {
    if (!Files.exists(file) || !java.util.Arrays.equals(Files.readAllBytes(file), content)) {
      Path temp = Files.createTempFile(file.getParent(), ".sync", "");
      Files.write(temp, content);
      Files.move(temp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
  }
}
