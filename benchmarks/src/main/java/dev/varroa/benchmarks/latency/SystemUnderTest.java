package dev.varroa.benchmarks.latency;

import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.benchmarks.channel.ChildJvm;
import dev.varroa.benchmarks.channel.Teardown;
import dev.varroa.bundle.render.RenderedBundle;
import dev.varroa.gateway.Gateway;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.operator.OperatorSettings;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.bundle.BundleConfigMap;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.operator.channel.JenkinsTokenIssuer;
import dev.varroa.operator.channel.PodPlayer;
import dev.varroa.operator.render.JcascConfigMapRenderer;
import dev.varroa.operator.render.naming.ControllerNames;
import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.git.GitHttpServer;
import dev.varroa.testfixtures.git.GitRepository;
import dev.varroa.testfixtures.jenkins.AppliedConfiguration;
import dev.varroa.testfixtures.jenkins.ConfigurationSource;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.nats.NatsServerProcess;
import dev.varroa.testfixtures.process.LoopbackPort;
import dev.varroa.testfixtures.process.ThrowawayDirectory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/**
 * The demo's setup for one Controller: a real kube-apiserver with the CRDs, a Git repository served over
 * smart HTTP, NATS, a gateway and the operator in this JVM, and the Controller's pod played by PodPlayer
 * with a real mite process next to the Jenkins contract fixture. The Controller's ComposedBundle follows
 * the repository's branch. Everything is registered with the Teardown as it starts.
 */
public final class SystemUnderTest {

  public static final String NAMESPACE = "ci";
  /** The Controller, its ComposedBundle and the repository share the name. */
  public static final String NAME = "latency";
  public static final String BRANCH = GitRepository.DEFAULT_BRANCH;
  /** Long enough that no interval check lands inside a triggered run. */
  public static final String TRIGGERED_INTERVAL = "1h";
  private static final String GATEWAY_ID = "gateway-latency";
  private static final String JCASC_FILE = "jcasc/00-system-message.yaml";
  private static final String PLUGINS = "plugins:\n  - id: configuration-as-code\n  - id: kubernetes\n";
  private static final String MITE_MAIN = "dev.varroa.mite.MiteMain";
  private static final Duration MITE_GRACEFUL_STOP = Duration.ofSeconds(30);
  private static final Duration POD_POLL = Duration.ofMillis(200);
  /** How often the fixture's record of configuration runs is read; its own timestamps are what is measured. */
  private static final Duration JENKINS_POLL = Duration.ofMillis(5);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private final KubernetesClient client;
  private final GitRepository repository;
  private final VarroaOperator operator;
  private final JenkinsFixture jenkins;
  private final FirstSeen<ComposedBundle> bundle;
  private final FirstSeen<ConfigMap> bundleConfigMap;
  private final FirstSeen<ConfigMap> cascConfigMap;
  private final FirstSeen<Controller> controller;
  private final DesiredStateCommands commands;

  private SystemUnderTest(KubernetesClient client, GitRepository repository, VarroaOperator operator,
      JenkinsFixture jenkins, FirstSeen<ComposedBundle> bundle, FirstSeen<ConfigMap> bundleConfigMap,
      FirstSeen<ConfigMap> cascConfigMap, FirstSeen<Controller> controller, DesiredStateCommands commands) {
    this.client = client;
    this.repository = repository;
    this.operator = operator;
    this.jenkins = jenkins;
    this.bundle = bundle;
    this.bundleConfigMap = bundleConfigMap;
    this.cascConfigMap = cascConfigMap;
    this.controller = controller;
    this.commands = commands;
  }

  /** A commit that moved the branch: its id and when the ref moved. */
  public record Commit(String id, Instant at) {
  }

  /**
   * Starts everything and waits until the Controller is Connected with the first commit's JCasC
   * ({@code firstMarker} as the system message) applied in the Jenkins fixture.
   */
  public static SystemUnderTest start(Teardown teardown, Path logs, String stamp, String firstMarker,
      Duration deadline) throws Exception {
    Instant until = Instant.now().plus(deadline);
    ThrowawayDirectory work = teardown.add(ThrowawayDirectory.create("varroa-bench-latency-"));
    KubeApiServer kube = teardown.add(KubeApiServer.start());
    kube.installCrds(ProjectLayout.root().resolve("chart/crds"));
    KubernetesClient client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    StarterProfile.install(client, null);

    GitHttpServer git = teardown.add(GitHttpServer.start());
    GitRepository repository = git.value().createRepository(NAME);
    repository.commit(BRANCH, Map.of(JCASC_FILE, jcasc(firstMarker), "plugins.yaml", PLUGINS), firstMarker);

    NatsServerProcess nats = teardown.add(NatsServerProcess.start());
    Path caCert = work.resolve("ca.crt");
    CertificateAuthority ca = CertificateAuthority.createFiles(caCert, work.resolve("ca.key"));
    Gateway gateway = teardown.add(Gateway.start(GatewaySettings.of(GATEWAY_ID, nats.value().url(), caCert,
        work.resolve("ca.key")).withListen(LoopbackPort.HOST, 0)));
    ControlChannel channel = new ControlChannel(nats.value().connect(), GatewaySettings.DEFAULT_CLUSTER_NAME,
        LoopbackPort.HOST + ":" + gateway.port(),
        ca.certificatePem(), JenkinsTokenIssuer.generate(), Clock.systemUTC());
    VarroaOperator operator = teardown.add(new VarroaOperator(client,
        OperatorSettings.defaults(work.resolve("cache")), channel));
    operator.start();
    DesiredStateCommands commands = teardown.add(new DesiredStateCommands(nats.value().connect(), GATEWAY_ID));

    FirstSeen<ComposedBundle> bundle = teardown.add(FirstSeen.watch("ComposedBundle " + NAME,
        client.resources(ComposedBundle.class).inNamespace(NAMESPACE).withName(NAME), SystemUnderTest::bundleState));
    FirstSeen<ConfigMap> bundleConfigMap = teardown.add(FirstSeen.watch("bundle ConfigMap",
        client.configMaps().inNamespace(NAMESPACE).withName(BundleConfigMap.name(NAME)),
        cm -> annotation(cm, BundleConfigMap.DIGEST_ANNOTATION)));
    FirstSeen<Controller> controller = teardown.add(FirstSeen.watch("Controller " + NAME,
        client.resources(Controller.class).inNamespace(NAMESPACE).withName(NAME), SystemUnderTest::controllerState));
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: ComposedBundle
        metadata: {name: %s, namespace: %s}
        spec:
          interval: %s
          versionProfileRef: {name: lts}
          inputs:
            - git: {url: "%s", ref: {branch: %s}}
        """.formatted(NAME, NAMESPACE, TRIGGERED_INTERVAL, repository.httpUrl(), BRANCH),
        GenericKubernetesResource.class)).create();
    Controller created = client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: %s, namespace: %s}
        spec:
          composedBundleRef: {name: %s}
        """.formatted(NAME, NAMESPACE, NAME), Controller.class)).create();
    String cascName = ControllerNames.of(NAME, created.getMetadata().getUid()).cascConfigMap();
    FirstSeen<ConfigMap> cascConfigMap = teardown.add(FirstSeen.watch("Controller's JCasC ConfigMap",
        client.configMaps().inNamespace(NAMESPACE).withName(cascName),
        cm -> annotation(cm, JcascConfigMapRenderer.BUNDLE_DIGEST_ANNOTATION)));

    PodPlayer pod = teardown.add(new PodPlayer(client, created, work.resolve("pod")));
    while (!pod.podCanStart()) {
      if (Instant.now().isAfter(until)) {
        throw new TimeoutException("the operator did not render the StatefulSet, channel and JCasC ConfigMaps and "
            + "the bootstrap token Secret of Controller " + NAME + " by " + until);
      }
      Thread.sleep(POD_POLL.toMillis());
    }
    Path miteLog = logs.resolve("mite-" + stamp + ".log");
    String classpath = System.getProperty("java.class.path");
    pod.start(env -> ChildJvm.start("mite", List.of("-Dslf4j.provider=org.slf4j.simple.SimpleServiceProvider",
        "-Dorg.slf4j.simpleLogger.showDateTime=true",
        "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS"), classpath, MITE_MAIN, env, miteLog,
        MITE_GRACEFUL_STOP), p -> { });
    SystemUnderTest system = new SystemUnderTest(client, repository, operator, pod.jenkins(), bundle,
        bundleConfigMap, cascConfigMap, controller, commands);
    String digest = bundleConfigMap.await(cm -> jcascOf(cm).contains(firstMarker), "the first render", until)
        .object().getMetadata().getAnnotations().get(BundleConfigMap.DIGEST_ANNOTATION);
    controller.await(c -> c.getStatus().phase == ControllerStatus.Phase.Connected && applied(c, digest),
        "Connected with " + digest + " applied (mite log: " + miteLog + ")", until);
    system.awaitJenkins(firstMarker, until);
    return system;
  }

  public KubernetesClient client() {
    return client;
  }

  public VarroaOperator operator() {
    return operator;
  }

  /** The URL the ComposedBundle's Git input names, as a push event's {@code repository.clone_url}. */
  public String cloneUrl() {
    return repository.httpUrl();
  }

  /** Commits a JCasC-only change: {@code jenkins.systemMessage} becomes {@code marker}. */
  public Commit commit(String marker) throws IOException {
    String id = repository.commit(BRANCH, Map.of(JCASC_FILE, jcasc(marker)), marker);
    return new Commit(id, Instant.now());
  }

  /**
   * Sets the bundle's {@code spec.interval} and returns when the operator was seen checking for that
   * generation (the status with its observedGeneration reached a watch): the phase of the interval checks.
   */
  public Instant setInterval(String interval, Instant deadline) throws InterruptedException, TimeoutException {
    ComposedBundle patched = client.resources(ComposedBundle.class).inNamespace(NAMESPACE).withName(NAME)
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"interval\":\"" + interval + "\"}}");
    Long generation = patched.getMetadata().getGeneration();
    return bundle.await(b -> b.getStatus() != null && Objects.equals(b.getStatus().observedGeneration, generation),
        "observedGeneration " + generation, deadline).at();
  }

  /** Follows the commit whose system message is {@code marker} until the Controller's status reports it applied. */
  public CommitTimeline follow(String marker, Commit commit, Instant deadline) throws Exception {
    AppliedConfiguration applied = awaitJenkins(marker, deadline);
    Instant written = applied.sources().stream().filter(source -> source.yaml().contains(marker)).findFirst()
        .map(SystemUnderTest::modified).orElseThrow();
    FirstSeen.Sighting<ConfigMap> stored = bundleConfigMap.await(cm -> jcascOf(cm).contains(marker),
        "a render with '" + marker + "'", deadline);
    String digest = annotation(stored.object(), BundleConfigMap.DIGEST_ANNOTATION);
    FirstSeen.Sighting<ComposedBundle> checked = bundle.await(b -> b.getStatus() != null
        && b.getStatus().artifact != null && digest.equals(b.getStatus().artifact.digest), "artifact " + digest,
        deadline);
    FirstSeen.Sighting<ConfigMap> rendered = cascConfigMap.await(cm -> digest.equals(
        annotation(cm, JcascConfigMapRenderer.BUNDLE_DIGEST_ANNOTATION)), "digest " + digest, deadline);
    Instant sent = commands.await(marker, deadline);
    FirstSeen.Sighting<Controller> shown = controller.await(c -> applied(c, digest),
        "lastApplyResult " + digest, deadline);
    return new CommitTimeline(digest, commit.at(), Instant.parse(checked.object().getStatus().artifact.lastUpdateTime),
        stored.at(), rendered.at(), sent, written, applied.appliedAt(), shown.at());
  }

  private AppliedConfiguration awaitJenkins(String marker, Instant deadline)
      throws InterruptedException, TimeoutException {
    int scanned = 0;
    while (true) {
      List<AppliedConfiguration> runs = jenkins.appliedConfigurations();
      for (; scanned < runs.size(); scanned++) {
        AppliedConfiguration run = runs.get(scanned);
        if (run.sources().stream().anyMatch(source -> source.yaml().contains(marker))) {
          return run;
        }
      }
      if (Instant.now().isAfter(deadline)) {
        throw new TimeoutException("the Jenkins fixture ran no configuration with '" + marker + "' by " + deadline
            + " (" + runs.size() + " runs in all)");
      }
      Thread.sleep(JENKINS_POLL.toMillis());
    }
  }

  private static String jcasc(String marker) {
    return "jenkins:\n  systemMessage: \"" + marker + "\"\n";
  }

  private static boolean applied(Controller c, String digest) {
    ControllerStatus.ApplyResult result = c.getStatus() == null ? null : c.getStatus().lastApplyResult;
    return result != null && Boolean.TRUE.equals(result.succeeded) && digest.equals(result.bundleDigest);
  }

  private static String controllerState(Controller c) {
    ControllerStatus status = c.getStatus();
    if (status == null) {
      return null;
    }
    ControllerStatus.ApplyResult result = status.lastApplyResult;
    return status.phase + " " + (result == null ? "nothing applied" : result.bundleDigest + " succeeded="
        + result.succeeded);
  }

  private static String bundleState(ComposedBundle b) {
    return b.getStatus() == null ? null : (b.getStatus().artifact == null ? "no artifact" : b.getStatus().artifact.digest)
        + " observedGeneration=" + b.getStatus().observedGeneration;
  }

  private static String annotation(ConfigMap cm, String key) {
    return cm.getMetadata().getAnnotations() == null ? null : cm.getMetadata().getAnnotations().get(key);
  }

  private static String jcascOf(ConfigMap cm) {
    return cm.getData() == null ? "" : Optional.ofNullable(cm.getData().get(RenderedBundle.JCASC_FILE)).orElse("");
  }

  /** The file's mtime: the kernel's coarse clock, in 4 ms steps on this machine. */
  private static Instant modified(ConfigurationSource source) {
    try {
      return Files.getLastModifiedTime(Path.of(source.origin())).toInstant();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the mtime of " + source.origin(), e);
    }
  }
}
