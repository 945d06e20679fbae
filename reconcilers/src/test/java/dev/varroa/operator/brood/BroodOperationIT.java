package dev.varroa.operator.brood;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.BroodOperation;
import dev.varroa.api.v1alpha1.BroodOperationStatus;
import dev.varroa.api.v1alpha1.BroodOperationStatus.TargetPhase;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.operator.bffresponders.ControllerListResponder;
import dev.varroa.operator.install.ChartRbac;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.bus.v1.ClusterPresence;
import dev.varroa.protocol.mite.v1.OneShot;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.KubeApiServerExtension;
import dev.varroa.testfixtures.kube.ServiceAccountClient;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.Operator;
import io.nats.client.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Brood operations on two real API servers sharing a real NATS: the core's operator (its BroodOperation reconciler,
 * as the chart's ServiceAccount under the chart's RBAC) resolves selections over both clusters and runs the core's
 * targets; the member answers its Controller list and runs the targets handed to it (its BroodTargetResponder). The
 * kubelet, the mites and Jenkins are played (PlayedJenkins); Controller phases are written by the test.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BroodOperationIT {
  @RegisterExtension
  static final KubeApiServerExtension MEMBER_API = KubeApiServerExtension.another("member");
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final String CORE = "core";
  private static final String MEMBER = "member-1";
  private static final String OPS = "fleet-ops";
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private final PlayedJenkins coreJenkins = new PlayedJenkins();
  private final PlayedJenkins memberJenkins = new PlayedJenkins();
  private KubernetesClient core;
  private KubernetesClient member;
  private Connection nats;
  private SharedIndexInformer<Controller> coreControllers;
  private SharedIndexInformer<Controller> memberControllers;
  private Operator operator;
  private BroodTargetResponder memberTargets;
  private ControllerListResponder memberRows;
  private ServiceAccountClient account;
  /** Most targets ever in flight in one status write, per operation name. */
  private final Map<String, AtomicInteger> mostInFlight = new ConcurrentHashMap<>();
  private SharedIndexInformer<BroodOperation> watch;

  @BeforeAll
  void start(KubeApiServer kube) throws Exception {
    core = kube.client();
    member = MEMBER_API.server().client();
    for (KubernetesClient client : List.of(core, member)) {
      for (String namespace : List.of("ci", "qa", OPS)) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
            .build()).serverSideApply();
      }
    }
    nats = NATS.server().connect();
    BusTopology.ensureClusters(nats);
    register();
    coreControllers = core.resources(Controller.class).inAnyNamespace().inform();
    memberControllers = member.resources(Controller.class).inAnyNamespace().inform();
    memberRows = new ControllerListResponder(nats, MEMBER, memberControllers.getStore()::list);
    memberRows.start();
    startMemberTargets();
    account = ChartRbac.installOperatorAccount(kube, ChartRbac.render(), "operator-brood");
    startOperator();
    watch = core.resources(BroodOperation.class).inNamespace(OPS).inform(new ResourceEventHandler<>() {
      @Override
      public void onAdd(BroodOperation operation) {
        record(operation);
      }

      @Override
      public void onUpdate(BroodOperation before, BroodOperation after) {
        record(after);
      }

      @Override
      public void onDelete(BroodOperation operation, boolean unknown) {}
    });
  }

  private void record(BroodOperation operation) {
    if (operation.getStatus() == null) {
      return;
    }
    int inFlight = (int) operation.getStatus().targets.stream()
        .filter(t -> t.phase == TargetPhase.Running || t.phase == TargetPhase.Paused || t.phase == TargetPhase.Unknown)
        .count();
    mostInFlight.computeIfAbsent(operation.getMetadata().getName(), n -> new AtomicInteger()).accumulateAndGet(inFlight,
        Math::max);
  }

  private void startOperator() {
    KubernetesClient client = account.client();
    TargetStepExecutor steps = new TargetStepExecutor(client, (ns, name) -> Optional.ofNullable(
        coreControllers.getStore().getByKey(ns + "/" + name)), coreJenkins, Clock.systemUTC());
    BroodOperationReconciler reconciler = new BroodOperationReconciler(Clock.systemUTC(), () -> CORE,
        coreControllers.getStore()::list, steps);
    reconciler.reach(RemoteClusters.over(() -> nats));
    operator = new Operator(o -> o.withKubernetesClient(client).withCloseClientOnStop(false));
    operator.register(reconciler);
    operator.start();
  }

  private void startMemberTargets() {
    memberTargets = new BroodTargetResponder(nats, MEMBER, new TargetStepExecutor(member, (ns, name) ->
        Optional.ofNullable(memberControllers.getStore().getByKey(ns + "/" + name)), memberJenkins, Clock.systemUTC()));
    memberTargets.start();
  }

  @AfterAll
  void stop() throws Exception {
    for (AutoCloseable running : new AutoCloseable[] {watch, memberTargets, memberRows, coreControllers,
        memberControllers}) {
      if (running != null) {
        running.close();
      }
    }
    if (operator != null) {
      operator.stop();
    }
    if (nats != null) {
      nats.close();
    }
    assertThat(account.forbidden()).as("requests the chart's RBAC refused to " + account.user()).isEmpty();
  }

  @Test
  void anEmptySelectionIsRefusedAtAdmissionNamingTheField() {
    assertThatThrownBy(() -> apply("""
        metadata: {name: nothing}
        spec:
          targets: {}
          steps: [{type: waitForIdle}]
        """)).isInstanceOf(KubernetesClientException.class).hasMessageContaining("spec.targets selects nothing");
    assertThatThrownBy(() -> apply("""
        metadata: {name: nothing}
        spec:
          targets: {namespaces: [ci]}
          steps: [{type: waitForIdle}]
          strategy: {failurePolicy: StopAfterFailures}
        """)).isInstanceOf(KubernetesClientException.class).hasMessageContaining("maxFailures");
  }

  @Test
  void aDryRunResolvesLabelAndPhaseFiltersAcrossBothClustersAndTouchesNothing() {
    controller(core, "ci", "sel-a", Map.of("tier", "gold"), ControllerStatus.Phase.Connected);
    controller(core, "ci", "sel-b", Map.of("tier", "gold"), ControllerStatus.Phase.Hibernated);
    controller(core, "qa", "sel-c", Map.of("tier", "tin"), ControllerStatus.Phase.Connected);
    controller(member, "ci", "sel-d", Map.of("tier", "gold"), ControllerStatus.Phase.Connected);
    await().atMost(DEADLINE).until(() -> cached(memberControllers, "ci/sel-d") && cached(coreControllers, "qa/sel-c"));
    apply("""
        metadata: {name: dry}
        spec:
          dryRun: true
          targets:
            clusters: ["*"]
            selector: {matchLabels: {tier: gold}}
            phases: [Connected]
          steps: [{type: safeRestart}]
        """);
    BroodOperationStatus status = awaitStatus(op("dry"), s -> s.phase == BroodOperationStatus.Phase.Succeeded);
    assertThat(status.dryRun).isTrue();
    assertThat(status.targets).extracting(t -> t.cluster + "/" + t.namespace + "/" + t.name)
        .containsExactly("core/ci/sel-a", "member-1/ci/sel-d");
    assertThat(status.targets).allMatch(t -> t.phase == TargetPhase.Pending);
    assertThat(status.message).contains("dry run", "nothing was touched");
    assertThat(coreJenkins.sent()).noneMatch(s -> s.controller().startsWith("ci/sel-"));
    assertThat(memberJenkins.sent()).noneMatch(s -> s.controller().startsWith("ci/sel-"));
  }

  @Test
  void maxConcurrentIsNeverExceededAcrossClustersAndEveryTargetSucceeds() {
    for (int i = 0; i < 4; i++) {
      controller(core, "ci", "wave-c" + i, Map.of("wave", "one"), ControllerStatus.Phase.Connected);
      controller(member, "ci", "wave-m" + i, Map.of("wave", "one"), ControllerStatus.Phase.Connected);
      // a build each, ending one by one, so targets stay in flight for a while
      coreJenkins.running("ci", "wave-c" + i, 1);
      memberJenkins.running("ci", "wave-m" + i, 1);
    }
    apply("""
        metadata: {name: wave}
        spec:
          targets:
            clusters: ["*"]
            selector: {matchLabels: {wave: one}}
          steps: [{type: waitForIdle}, {type: quietDown}, {type: cancelQuietDown}]
          strategy: {maxConcurrent: 3}
        """);
    await().atMost(DEADLINE).untilAsserted(() -> {
      BroodOperationStatus status = op("wave").get().getStatus();
      assertThat(status).isNotNull();
      // builds end while the operation runs: each target still waits for one until then
      for (int i = 0; i < 4; i++) {
        coreJenkins.running("ci", "wave-c" + i, 0);
        memberJenkins.running("ci", "wave-m" + i, 0);
      }
      assertThat(status.phase).as(YAML.asYaml(status)).isEqualTo(BroodOperationStatus.Phase.Succeeded);
    });
    BroodOperationStatus status = op("wave").get().getStatus();
    assertThat(status.counts.succeeded).isEqualTo(8);
    assertThat(mostInFlight.get("wave").get()).as("targets in flight at any status write").isBetween(1, 3);
    assertThat(status.targets).allSatisfy(t -> assertThat(t.steps).extracting(s -> s.type + ":" + s.phase)
        .containsExactly("waitForIdle:Succeeded", "quietDown:Succeeded", "cancelQuietDown:Succeeded"));
    assertThat(memberJenkins.count("ci", "wave-m0", OneShot.Action.QUIET_DOWN)).isEqualTo(1);
  }

  @Test
  void safeRestartKeepsARunningBuildUntilItFinishesThenRestartsOnce() {
    controller(member, "ci", "busy", Map.of("restart", "yes"), ControllerStatus.Phase.Connected);
    memberJenkins.running("ci", "busy", 2);
    apply("""
        metadata: {name: restart}
        spec:
          targets: {clusters: [member-1], selector: {matchLabels: {restart: "yes"}}}
          steps: [{type: safeRestart}]
        """);
    BroodOperationStatus waiting = awaitStatus(op("restart"), s -> !s.targets.isEmpty()
        && s.targets.get(0).message != null && s.targets.get(0).message.contains("2 running build(s)"));
    assertThat(waiting.targets.get(0).phase).isEqualTo(TargetPhase.Running);
    assertThat(memberJenkins.count("ci", "busy", OneShot.Action.SAFE_RESTART)).as("no restart while builds run")
        .isZero();
    memberJenkins.running("ci", "busy", 0);
    BroodOperationStatus done = awaitStatus(op("restart"), s -> s.phase == BroodOperationStatus.Phase.Succeeded);
    assertThat(done.targets.get(0).steps.get(0).message).startsWith("Jenkins restarted");
    assertThat(memberJenkins.count("ci", "busy", OneShot.Action.SAFE_RESTART)).isEqualTo(1);
  }

  @Test
  void eachFailurePolicyStopsWhereItSays() {
    for (int i = 0; i < 4; i++) {
      controller(core, "qa", "fp-" + i, Map.of("fp", "x"), ControllerStatus.Phase.Connected);
    }
    // fp-0 and fp-2 have builds that never end: with a drain timeout of 0 their waitForIdle fails at once
    coreJenkins.running("qa", "fp-0", 1);
    coreJenkins.running("qa", "fp-2", 1);
    String spec = """
        metadata: {name: %s}
        spec:
          targets: {namespaces: [qa], selector: {matchLabels: {fp: x}}}
          steps: [{type: waitForIdle}]
          strategy: {failurePolicy: %s, drainTimeoutSeconds: 0%s}
        """;
    apply(spec.formatted("fp-first", "StopOnFirstFailure", ""));
    apply(spec.formatted("fp-continue", "Continue", ""));
    apply(spec.formatted("fp-after", "StopAfterFailures", ", maxFailures: 2"));

    BroodOperationStatus first = awaitStatus(op("fp-first"), s -> s.phase == BroodOperationStatus.Phase.Failed);
    assertThat(first.targets).extracting(t -> t.phase).containsExactly(TargetPhase.Failed, TargetPhase.Cancelled,
        TargetPhase.Cancelled, TargetPhase.Cancelled);
    assertThat(first.targets.get(0).message).contains("1 build(s) still running after the drain timeout");
    assertThat(first.message).contains("StopOnFirstFailure stopped the rest");

    BroodOperationStatus cont = awaitStatus(op("fp-continue"), s -> s.phase == BroodOperationStatus.Phase.Failed);
    assertThat(cont.targets).extracting(t -> t.phase).containsExactly(TargetPhase.Failed, TargetPhase.Succeeded,
        TargetPhase.Failed, TargetPhase.Succeeded);

    BroodOperationStatus after = awaitStatus(op("fp-after"), s -> s.phase == BroodOperationStatus.Phase.Failed);
    assertThat(after.targets).extracting(t -> t.phase).containsExactly(TargetPhase.Failed, TargetPhase.Succeeded,
        TargetPhase.Failed, TargetPhase.Cancelled);
  }

  @Test
  void pausedItStartsNothingResumedItGoesOnAndAPauseStepWaitsForAPerson() {
    for (int i = 0; i < 2; i++) {
      controller(core, "ci", "pz-" + i, Map.of("pz", "x"), ControllerStatus.Phase.Connected);
    }
    apply("""
        metadata: {name: paused}
        spec:
          suspend: true
          targets: {selector: {matchLabels: {pz: x}}}
          strategy: {maxConcurrent: 2}
          steps: [{type: pause, note: check the plugin report}, {type: waitForIdle}]
        """);
    BroodOperationStatus suspended = awaitStatus(op("paused"), s -> s.phase == BroodOperationStatus.Phase.Paused);
    assertThat(suspended.targets).allMatch(t -> t.phase == TargetPhase.Pending);

    core.resources(BroodOperation.class).inNamespace(OPS).withName("paused")
        .edit(o -> { o.getSpec().suspend = false; return o; });
    BroodOperationStatus atPause = awaitStatus(op("paused"), s -> s.targets.size() == 2
        && s.targets.stream().allMatch(t -> t.phase == TargetPhase.Paused));
    assertThat(atPause.phase).isEqualTo(BroodOperationStatus.Phase.Paused);
    assertThat(atPause.message).contains("check the plugin report", "varroa.dev/resume");

    core.resources(BroodOperation.class).inNamespace(OPS).withName("paused").edit(o -> {
      o.getMetadata().getAnnotations().put(OperationContext.RESUME_ANNOTATION, "now");
      return o;
    });
    // one new value releases every target waiting in the pause step then
    awaitStatus(op("paused"), s -> s.phase == BroodOperationStatus.Phase.Succeeded);
  }

  @Test
  void cancelledItStopsAndUndoesTheQuietDownItAskedFor() {
    controller(core, "ci", "cx", Map.of("cx", "x"), ControllerStatus.Phase.Connected);
    coreJenkins.running("ci", "cx", 1);
    apply("""
        metadata: {name: cancelled}
        spec:
          targets: {selector: {matchLabels: {cx: x}}}
          steps: [{type: safeRestart}]
        """);
    awaitStatus(op("cancelled"), s -> !s.targets.isEmpty() && s.targets.get(0).message != null
        && s.targets.get(0).message.contains("running build"));
    core.resources(BroodOperation.class).inNamespace(OPS).withName("cancelled")
        .edit(o -> { o.getSpec().cancel = true; return o; });
    BroodOperationStatus cancelled = awaitStatus(op("cancelled"), s -> s.phase == BroodOperationStatus.Phase.Cancelled);
    assertThat(cancelled.targets.get(0).phase).isEqualTo(TargetPhase.Cancelled);
    await().atMost(DEADLINE).until(() -> coreJenkins.count("ci", "cx", OneShot.Action.CANCEL_QUIET_DOWN) == 1);
    assertThat(coreJenkins.count("ci", "cx", OneShot.Action.SAFE_RESTART)).isZero();
  }

  @Test
  void anOperatorRestartedMidOperationResumesWithoutStartingATargetTwice() {
    for (int i = 0; i < 3; i++) {
      controller(core, "ci", "rs-" + i, Map.of("rs", "x"), ControllerStatus.Phase.Connected);
      coreJenkins.running("ci", "rs-" + i, 1);
    }
    apply("""
        metadata: {name: resumed}
        spec:
          targets: {selector: {matchLabels: {rs: x}}}
          steps: [{type: safeRestart}]
          strategy: {maxConcurrent: 3}
        """);
    awaitStatus(op("resumed"), s -> s.targets.size() == 3 && s.targets.stream().allMatch(t -> t.message != null
        && t.message.contains("running build")));
    operator.stop();
    coreJenkins.running("ci", "rs-0", 0);
    startOperator();
    coreJenkins.running("ci", "rs-1", 0);
    coreJenkins.running("ci", "rs-2", 0);
    awaitStatus(op("resumed"), s -> s.phase == BroodOperationStatus.Phase.Succeeded);
    for (int i = 0; i < 3; i++) {
      assertThat(coreJenkins.count("ci", "rs-" + i, OneShot.Action.QUIET_DOWN)).as("rs-" + i + " quieted").isEqualTo(1);
      assertThat(coreJenkins.count("ci", "rs-" + i, OneShot.Action.SAFE_RESTART)).as("rs-" + i + " restarted")
          .isEqualTo(1);
    }
  }

  @Test
  void aSilentMemberShowsItsTargetsUnknownNamedAndTheyResumeWhenItAnswersAgain() {
    controller(member, "qa", "quiet-m", Map.of("sil", "x"), ControllerStatus.Phase.Connected);
    memberJenkins.running("qa", "quiet-m", 1);
    apply("""
        metadata: {name: silent}
        spec:
          targets: {clusters: [member-1], selector: {matchLabels: {sil: x}}}
          steps: [{type: waitForIdle}]
        """);
    awaitStatus(op("silent"), s -> !s.targets.isEmpty() && s.targets.get(0).phase == TargetPhase.Running);
    memberTargets.close();
    BroodOperationStatus unknown = awaitStatus(op("silent"), s -> s.targets.get(0).phase == TargetPhase.Unknown);
    assertThat(unknown.targets.get(0).message).contains("cluster member-1 has not answered since");
    memberJenkins.running("qa", "quiet-m", 0);
    startMemberTargets();
    awaitStatus(op("silent"), s -> s.phase == BroodOperationStatus.Phase.Succeeded);
  }

  /** The cache the selection reads holds this Controller with the phase the test wrote. */
  private static boolean cached(SharedIndexInformer<Controller> cache, String key) {
    Controller controller = cache.getStore().getByKey(key);
    return controller != null && controller.getStatus() != null && controller.getStatus().phase != null;
  }

  @Test
  void theStepsTheControllerReconcilerAnswersWaitForItsAnswerEachInTurn() throws Exception {
    controller(core, "ci", "steps", Map.of("steps", "x"), ControllerStatus.Phase.Connected);
    Controller created = core.resources(Controller.class).inNamespace("ci").withName("steps").get();
    created.getStatus().statefulSetName = "steps-0a1b2c3d";
    core.resource(created).updateStatus();
    core.pods().inNamespace("ci").resource(jenkinsPod("steps-0a1b2c3d-0")).create();
    java.util.concurrent.ScheduledExecutorService player = java.util.concurrent.Executors
        .newSingleThreadScheduledExecutor();
    // the Controller reconciler's and the kubelet's part: each annotation answered as they would
    player.scheduleWithFixedDelay(() -> answerAnnotations("ci", "steps"), 200, 200,
        java.util.concurrent.TimeUnit.MILLISECONDS);
    try {
      apply("""
          metadata: {name: steps}
          spec:
            targets: {selector: {matchLabels: {steps: x}}}
            steps: [{type: backup}, {type: reapplyConfiguration}, {type: reprovision}, {type: hibernate}, {type: wake}]
          """);
      BroodOperationStatus done = awaitStatus(op("steps"), s -> s.phase == BroodOperationStatus.Phase.Succeeded);
      assertThat(done.targets.get(0).steps).extracting(r -> r.type + ": " + r.message).containsExactly(
          "backup: snapshot steps-snap is ready",
          "reapplyConfiguration: desired state sha256:played applied",
          "reprovision: pod steps-0a1b2c3d-0 replaced, Controller Connected",
          "hibernate: Controller is Hibernated",
          "wake: Controller is Connected");
      Map<String, String> annotations = core.resources(Controller.class).inNamespace("ci").withName("steps").get()
          .getMetadata().getAnnotations();
      assertThat(annotations).containsKeys("varroa.dev/backup-now", "varroa.dev/reapply", "varroa.dev/hibernate-now",
          "varroa.dev/wake");
    } finally {
      player.shutdownNow();
    }
  }

  private void answerAnnotations(String namespace, String name) {
    try {
      Controller c = core.resources(Controller.class).inNamespace(namespace).withName(name).get();
      Map<String, String> a = c.getMetadata().getAnnotations() == null ? Map.of() : c.getMetadata().getAnnotations();
      ControllerStatus status = c.getStatus();
      String now = java.time.Instant.now().toString();
      boolean changed = false;
      String backup = a.get("varroa.dev/backup-now");
      if (backup != null && (status.backup == null || !backup.equals(status.backup.lastOnDemandRequest))) {
        status.backup = new dev.varroa.api.v1alpha1.BackupStatus();
        status.backup.lastOnDemandRequest = backup;
        status.backup.lastSuccessfulAt = now;
        status.backup.lastSuccessfulSnapshot = name + "-snap";
        changed = true;
      }
      String reapply = a.get("varroa.dev/reapply");
      if (reapply != null && (status.lastApplyResult == null || !reapply.equals(status.lastApplyResult.trigger))) {
        status.lastApplyResult = new ControllerStatus.ApplyResult();
        status.lastApplyResult.succeeded = true;
        status.lastApplyResult.trigger = reapply;
        status.lastApplyResult.bundleDigest = "sha256:played";
        changed = true;
      }
      String pod = status.statefulSetName + "-0";
      if (core.pods().inNamespace(namespace).withName(pod).get() == null) {
        core.pods().inNamespace(namespace).resource(jenkinsPod(pod)).create();
        status.miteStatus = new ControllerStatus.MiteStatus();
        status.miteStatus.connected = true;
        status.miteStatus.connectedAt = java.time.Instant.now().plusSeconds(1).toString();
        changed = true;
      }
      String park = a.get("varroa.dev/hibernate-now");
      if (park != null && (status.hibernation == null || !park.equals(status.hibernation.lastHibernateRequest))) {
        status.hibernation = new dev.varroa.api.v1alpha1.HibernationStatus();
        status.hibernation.lastHibernateRequest = park;
        status.hibernation.lastHibernateOutcome = "Parked";
        status.hibernation.lastWakeRequest = a.get("varroa.dev/wake");
        status.phase = ControllerStatus.Phase.Hibernated;
        changed = true;
      }
      String wake = a.get("varroa.dev/wake");
      if (wake != null && status.phase == ControllerStatus.Phase.Hibernated
          && !wake.equals(status.hibernation.lastWakeRequest)) {
        status.hibernation.lastWakeRequest = wake;
        status.phase = ControllerStatus.Phase.Connected;
        changed = true;
      }
      if (changed) {
        core.resource(c).updateStatus();
      }
    } catch (RuntimeException e) {
      // a conflict with the engine's annotation patch: the next round answers
    }
  }

  private static io.fabric8.kubernetes.api.model.Pod jenkinsPod(String name) {
    return new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata().withName(name).endMetadata()
        .withNewSpec().addNewContainer().withName("jenkins").withImage("jenkins").endContainer().endSpec().build();
  }

  /** Both clusters in the registry, as their beacons keep them (entries expire after 30 s unless refreshed). */
  private void register() throws Exception {
    for (String cluster : List.of(CORE, MEMBER)) {
      nats.keyValue(BusNames.CLUSTERS_BUCKET).put(cluster, ClusterPresence.newBuilder().setName(cluster)
          .setRole(cluster.equals(CORE) ? "core" : "member").build().toByteArray());
    }
  }

  private void apply(String yaml) {
    try {
      register();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    BroodOperation operation = YAML.unmarshal("apiVersion: varroa.dev/v1alpha1\nkind: BroodOperation\n" + yaml,
        BroodOperation.class);
    operation.getMetadata().setNamespace(OPS);
    if (operation.getMetadata().getAnnotations() == null) {
      operation.getMetadata().setAnnotations(new java.util.HashMap<>());
    }
    core.resource(operation).create();
  }

  private java.util.function.Supplier<BroodOperation> op(String name) {
    return () -> core.resources(BroodOperation.class).inNamespace(OPS).withName(name).get();
  }

  private static BroodOperationStatus awaitStatus(java.util.function.Supplier<BroodOperation> operation,
      Predicate<BroodOperationStatus> condition) {
    java.util.concurrent.atomic.AtomicReference<BroodOperationStatus> last = new java.util.concurrent.atomic.AtomicReference<>();
    try {
      return await().atMost(DEADLINE).until(() -> {
        last.set(operation.get().getStatus());
        return last.get();
      }, s -> s != null && condition.test(s));
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new AssertionError("status never matched; last: " + YAML.asYaml(last.get()), e);
    }
  }

  private static void controller(KubernetesClient client, String namespace, String name, Map<String, String> labels,
      ControllerStatus.Phase phase) {
    Controller controller = YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: %s, namespace: %s}
        spec: {}
        """.formatted(name, namespace), Controller.class);
    controller.getMetadata().setLabels(labels);
    Controller created = client.resource(controller).create();
    ControllerStatus status = new ControllerStatus();
    status.phase = phase;
    created.setStatus(status);
    client.resource(created).updateStatus();
  }
}
