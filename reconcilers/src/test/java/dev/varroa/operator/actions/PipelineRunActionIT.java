package dev.varroa.operator.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.TeamStatus;
import dev.varroa.operator.channel.CommandQueue;
import dev.varroa.operator.channel.MiteRoutes;
import dev.varroa.operator.cluster.ClusterRole;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.activity.v1.ActivityEvent;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.bus.v1.ActionRequest;
import dev.varroa.protocol.bus.v1.ActionResult;
import dev.varroa.protocol.bus.v1.PipelineRunQueued;
import dev.varroa.protocol.bus.v1.PipelineRunStatus;
import dev.varroa.protocol.bus.v1.QueuedCommand;
import dev.varroa.protocol.bus.v1.QueuedCommandResult;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.Parameter;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.JetStreamApiException;
import io.nats.client.Message;
import io.nats.client.Subscription;
import io.nats.client.api.MessageInfo;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The operator's side of a pipeline run on a real API server and real NATS: the recorder's forwarded request is
 * answered "accepted" with the cell and the job, the RunJob lands on JetStream's varroa_commands with the job and the
 * parameters, and when a played gateway publishes the mite's result the recorder (played by a NATS subscriber) gets
 * PipelineRunQueued: "queued" with Jenkins' queue id, or "failed" naming the cell, the job and why. An unknown Team
 * or pipeline and an unplaced Team are refused.
 */
@WithKubeApiServer
class PipelineRunActionIT {
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final String CLUSTER = "west";
  private static final String NS = "tenant-a";
  private static final String POOL_NS = "cells";
  private static final Duration WAIT = Duration.ofSeconds(30);
  /** Short, so the test of a cell that never answers ends soon; production waits 15 minutes. */
  private static final Duration SHORT_DEADLINE = Duration.ofSeconds(2);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private static Connection operatorSide;
  private static Connection recorderSide;
  private static Connection gatewaySide;
  private static CommandQueue queue;
  private static ClusterActionResponder responder;
  private static ClusterActionResponder hastyResponder;
  private static Dispatcher recorder;
  private static ControllerIdentity cell;
  /** What the played recorder received on varroa.recorder.pipeline-run-queued. */
  private static final BlockingQueue<PipelineRunQueued> reports = new LinkedBlockingQueue<>();

  @BeforeAll
  static void start(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    for (String namespace : new String[] {NS, POOL_NS}) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
          .create();
    }
    Controller shared = client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: shared-0, namespace: %s, labels: {varroa.dev/cell-pool: shared}}
        spec: {}
        """.formatted(POOL_NS), Controller.class)).create();
    cell = new ControllerIdentity(POOL_NS, "shared-0", shared.getMetadata().getUid());
    team(client, "alpha", "shared-0", null);
    team(client, "beta", null, "every cell of CellPool cells/shared is full: raise spec.replicas");
    team(client, "gamma", "shared-0", null, "[checkout, payments/billing]");

    operatorSide = NATS.server().connect();
    recorderSide = NATS.server().connect();
    gatewaySide = NATS.server().connect();
    BusTopology.ensure(operatorSide);
    Clock clock = Clock.systemUTC();
    ActivityPublisher activity = new ActivityPublisher(() -> operatorSide, CLUSTER, "operator", clock);
    queue = new CommandQueue(operatorSide, CLUSTER, new MiteRoutes(clock, key -> { }), activity, clock);
    queue.start();
    PipelineRunReporter reporter = new PipelineRunReporter(() -> operatorSide, clock, Duration.ofMillis(200));
    responder = responder(client, "run-ledger", new PipelineRunAction(client, CLUSTER, queue, reporter, activity,
        PipelineRunSettings.defaults(), clock));
    hastyResponder = responder(client, "hasty-ledger", new PipelineRunAction(client, CLUSTER, queue, reporter,
        activity, new PipelineRunSettings(SHORT_DEADLINE), clock));
    responder.start();
    operatorSide.flush(Duration.ofSeconds(5));
    // the recorder answers each report with the request's status, as varroa.recorder.pipeline-run-queued does
    recorder = recorderSide.createDispatcher(message -> {
      try {
        PipelineRunQueued report = PipelineRunQueued.parseFrom(message.getData());
        reports.add(report);
        recorderSide.publish(message.getReplyTo(), PipelineRunStatus.newBuilder().setRequestId(report.getRequestId())
            .setState(report.getOutcome()).build().toByteArray());
      } catch (com.google.protobuf.InvalidProtocolBufferException e) {
        throw new IllegalStateException(e);
      }
    });
    recorder.subscribe(BusNames.PIPELINE_RUN_QUEUED_SUBJECT, BusNames.RECORDER_QUEUE_GROUP);
    recorderSide.flush(Duration.ofSeconds(5));
  }

  @BeforeEach
  void forgetReports() {
    reports.clear();
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable closeable : new AutoCloseable[] {responder, hastyResponder, queue, operatorSide, recorderSide,
        gatewaySide}) {
      if (closeable != null) {
        closeable.close();
      }
    }
  }

  @Test
  void anAcceptedRunQueuesTheJobWithItsParametersAndReportsJenkinsQueueIdToTheRecorder() throws Exception {
    Subscription activity = recorderSide.subscribe(BusNames.activity(CLUSTER, POOL_NS, "shared-0"));
    recorderSide.flush(Duration.ofSeconds(5));
    String id = UUID.randomUUID().toString();

    ActionResult answer = ask(run(id, "alpha", "build").putParameters("TARGET", "staging")
        .putParameters("DRY_RUN", "true").build());

    assertThat(answer.getOutcome()).as(answer.getMessage()).isEqualTo("accepted");
    assertThat(answer.getCell()).isEqualTo("shared-0");
    assertThat(answer.getCellNamespace()).isEqualTo(POOL_NS);
    assertThat(answer.getJob()).as("a Team of another namespace than its pool's has folder ns_name")
        .isEqualTo(NS + "_alpha/build");
    QueuedCommand queued = queuedFor(cell);
    assertThat(queued.getController().getUid()).isEqualTo(cell.uid());
    assertThat(queued.getCommand().getCommandId()).isEqualTo("pipeline-run-" + id);
    assertThat(queued.getCommand().getRunJob().getJob()).isEqualTo(NS + "_alpha/build");
    assertThat(queued.getCommand().getRunJob().getParametersList()).containsExactly(
        Parameter.newBuilder().setName("DRY_RUN").setValue("true").build(),
        Parameter.newBuilder().setName("TARGET").setValue("staging").build());
    assertThat(Duration.between(Instant.now(), Instant.ofEpochMilli(queued.getCommand().getDeadlineEpochMillis())))
        .isGreaterThan(Duration.ofMinutes(14)).isLessThanOrEqualTo(Duration.ofMinutes(15));
    ActivityEvent requested = nextActivity(activity, PipelineRunAction.REQUESTED);
    assertThat(requested.getAttributesMap()).containsEntry("team", NS + "/alpha").containsEntry("pipeline", "build")
        .containsEntry("requestedBy", "alice").containsEntry("requestId", id);
    assertThat(requested.toString()).as("no parameter value in the feed").doesNotContain("staging");

    publishResult(queued, CommandResult.Outcome.SUCCEEDED, "Jenkins answered 201 Created", 4711);

    PipelineRunQueued report = reports.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(report).as("the recorder got the report").isNotNull();
    assertThat(report.getOutcome()).isEqualTo("queued");
    assertThat(report.getQueueId()).isEqualTo(4711);
    assertThat(report.getRequestId()).isEqualTo(id);
    assertThat(report.getCluster()).isEqualTo(CLUSTER);
    assertThat(report.getCellNamespace()).isEqualTo(POOL_NS);
    assertThat(report.getCell()).isEqualTo("shared-0");
    assertThat(report.getJob()).isEqualTo(NS + "_alpha/build");
  }

  @Test
  void aPushRunOfAParkedCellWakesItThenQueuesTheJob(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    Controller parked = client.resources(Controller.class).inNamespace(POOL_NS).withName("shared-0").get();
    parked.setStatus(new dev.varroa.api.v1alpha1.ControllerStatus());
    parked.getStatus().phase = dev.varroa.api.v1alpha1.ControllerStatus.Phase.Hibernated;
    client.resource(parked).updateStatus();
    Clock clock = Clock.systemUTC();
    PushedPipelineRunsUnderTest pushes = new PushedPipelineRunsUnderTest(client, clock);
    Team alpha = client.resources(Team.class).inNamespace(NS).withName("alpha").get();

    String outcome = pushes.runs.run(alpha, "deploy", "GitHub push to git.example/alpha refs/heads/main");

    assertThat(outcome).startsWith("accepted: ").endsWith("(wake: woken)");
    assertThat(client.resources(Controller.class).inNamespace(POOL_NS).withName("shared-0").get().getMetadata()
        .getAnnotations()).containsKey(dev.varroa.api.v1alpha1.ControllerAnnotations.WAKE);
    QueuedCommand queued = queuedFor(cell);
    assertThat(queued.getCommand().getRunJob().getJob()).isEqualTo(NS + "_alpha/deploy");
    assertThat(queued.getCommand().getRunJob().getReason()).contains("by push");
    assertThat(pushes.runs.teams()).extracting(t -> t.getMetadata().getName()).contains("alpha", "beta");
  }

  /** What the operator wires for its webhook receiver: the cell wakes and the pipeline-run action of this cluster. */
  private static final class PushedPipelineRunsUnderTest {
    final dev.varroa.operator.cell.PushedPipelineRuns runs;

    PushedPipelineRunsUnderTest(KubernetesClient client, Clock clock) {
      ActivityPublisher activity = new ActivityPublisher(() -> operatorSide, CLUSTER, "operator", clock);
      runs = new dev.varroa.operator.cell.PushedPipelineRuns(client, CLUSTER,
          new dev.varroa.operator.cell.CellWakeResponder(client, operatorSide, CLUSTER, clock),
          new PipelineRunAction(client, CLUSTER, queue, new PipelineRunReporter(() -> operatorSide, clock,
              Duration.ofMillis(200)), activity, PipelineRunSettings.defaults(), clock));
    }
  }

  @Test
  void theSameRequestIdAgainIsReplayedAndQueuesNothingNew() throws Exception {
    String id = UUID.randomUUID().toString();
    ActionResult first = ask(run(id, "alpha", "deploy").build());
    assertThat(first.getOutcome()).as(first.getMessage()).isEqualTo("accepted");
    long sequence = lastSequence(cell);

    ActionResult again = ask(run(id, "alpha", "deploy").build());

    assertThat(again.getReplayed()).isTrue();
    assertThat(again.getOutcome()).isEqualTo("accepted");
    assertThat(again.getJob()).isEqualTo(NS + "_alpha/deploy");
    assertThat(lastSequence(cell)).as("no second RunJob on varroa_commands").isEqualTo(sequence);
    publishResult(queuedFor(cell), CommandResult.Outcome.SUCCEEDED, "queued", 7);
    assertThat(reports.poll(WAIT.toSeconds(), TimeUnit.SECONDS)).isNotNull();
  }

  @Test
  void aJobJenkinsDoesNotKnowIsReportedFailedNamingTheCellAndTheJob() throws Exception {
    String id = UUID.randomUUID().toString();
    ActionResult answer = ask(run(id, "alpha", "build").build());
    assertThat(answer.getOutcome()).as(answer.getMessage()).isEqualTo("accepted");

    publishResult(queuedFor(cell), CommandResult.Outcome.FAILED, "Jenkins answered 404: no job tenant-a_alpha/build",
        0);

    PipelineRunQueued report = reports.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(report).isNotNull();
    assertThat(report.getOutcome()).isEqualTo("failed");
    assertThat(report.getQueueId()).isZero();
    assertThat(report.getMessage()).contains("cell " + POOL_NS + "/shared-0").contains("job " + NS + "_alpha/build")
        .contains("Jenkins answered 404");
  }

  @Test
  void aCellThatNeverRunsItBeforeTheDeadlineIsReportedFailedAskingWhetherItIsWaking(KubeApiServer kube)
      throws Exception {
    String id = UUID.randomUUID().toString();
    ActionResult answer = hastyResponder.act(run(id, "alpha", "build").build());
    assertThat(answer.getOutcome()).as(answer.getMessage()).isEqualTo("accepted");

    // nobody plays the gateway: the queue gives the command up at its deadline
    PipelineRunQueued report = reports.poll(WAIT.toSeconds(), TimeUnit.SECONDS);

    assertThat(report).isNotNull();
    assertThat(report.getRequestId()).isEqualTo(id);
    assertThat(report.getOutcome()).isEqualTo("failed");
    assertThat(report.getMessage()).contains("cell " + POOL_NS + "/shared-0 did not run job " + NS + "_alpha/build"
        + " within 2 s: is it waking? see its status");
  }

  @Test
  void anUnknownTeamIsRefusedNotFound() throws Exception {
    ActionResult answer = ask(run(UUID.randomUUID().toString(), "nobody", "build").build());

    assertThat(answer.getOutcome()).isEqualTo("refused");
    assertThat(answer.getNotFound()).isTrue();
    assertThat(answer.getMessage()).contains("no Team " + NS + "/nobody in cluster " + CLUSTER);
  }

  @Test
  void anUnknownPipelineIsRefusedNotFoundListingTheTeamsPipelines() throws Exception {
    ActionResult answer = ask(run(UUID.randomUUID().toString(), "alpha", "release").build());

    assertThat(answer.getOutcome()).isEqualTo("refused");
    assertThat(answer.getNotFound()).isTrue();
    assertThat(answer.getMessage()).contains("Team " + NS + "/alpha has no pipeline 'release' in spec.pipelines")
        .contains("its pipelines: build, deploy");
  }

  @Test
  void anUnplacedTeamIsRefusedWithItsStatusMessage() throws Exception {
    ActionResult answer = ask(run(UUID.randomUUID().toString(), "beta", "build").build());

    assertThat(answer.getOutcome()).isEqualTo("refused");
    assertThat(answer.getNotFound()).isFalse();
    assertThat(answer.getMessage()).isEqualTo("Team " + NS + "/beta is not placed: every cell of CellPool cells/shared"
        + " is full: raise spec.replicas");
  }

  @Test
  void aCallFromATeamNamedInCallableByIsAcceptedAndTheFeedNamesTheCaller() throws Exception {
    Subscription activity = recorderSide.subscribe(BusNames.activity(CLUSTER, POOL_NS, "shared-0"));
    recorderSide.flush(Duration.ofSeconds(5));
    String id = UUID.randomUUID().toString();

    // "checkout" in callableBy is the Team checkout of the called Team's own namespace
    ActionResult answer = ask(call(id, "gamma", NS + "/checkout", "east").build());

    assertThat(answer.getOutcome()).as(answer.getMessage()).isEqualTo("accepted");
    assertThat(answer.getJob()).isEqualTo(NS + "_gamma/deploy");
    assertThat(queuedFor(cell).getCommand().getCommandId()).isEqualTo("pipeline-run-" + id);
    ActivityEvent requested = nextActivity(activity, PipelineRunAction.REQUESTED);
    assertThat(requested.getAttributesMap()).containsEntry("team", NS + "/gamma")
        .containsEntry("callerTeam", NS + "/checkout").containsEntry("callerCluster", "east");
  }

  @Test
  void aCallFromATeamOfAnotherNamespaceNamedAsNamespaceSlashNameIsAccepted() throws Exception {
    ActionResult answer = ask(call(UUID.randomUUID().toString(), "gamma", "payments/billing", "east").build());

    assertThat(answer.getOutcome()).as(answer.getMessage()).isEqualTo("accepted");
  }

  @Test
  void aCallFromATeamNotInCallableByIsRefusedWithTheFixAndQueuesNothing() throws Exception {
    long sequence = lastSequenceOrZero(cell);

    ActionResult answer = ask(call(UUID.randomUUID().toString(), "gamma", "payments/mallory", CLUSTER).build());
    // a Team of the same name in another namespace is another Team
    ActionResult sameName = ask(call(UUID.randomUUID().toString(), "gamma", "elsewhere/checkout", CLUSTER).build());
    // a Team without callableBy lets nobody call it
    ActionResult closed = ask(call(UUID.randomUUID().toString(), "alpha", NS + "/gamma", CLUSTER).build());

    assertThat(answer.getOutcome()).isEqualTo("refused");
    assertThat(answer.getNotFound()).isFalse();
    assertThat(answer.getMessage()).isEqualTo("Team " + NS + "/gamma does not let Team payments/mallory call its"
        + " pipelines (spec.callableBy: [checkout, payments/billing]); fix: add payments/mallory to spec.callableBy"
        + " of Team " + NS + "/gamma");
    assertThat(sameName.getOutcome()).isEqualTo("refused");
    assertThat(sameName.getMessage()).contains("does not let Team elsewhere/checkout");
    assertThat(closed.getOutcome()).isEqualTo("refused");
    assertThat(closed.getMessage()).contains("(spec.callableBy: [])", "fix: add gamma to spec.callableBy of Team "
        + NS + "/alpha");
    assertThat(lastSequenceOrZero(cell)).as("no RunJob on varroa_commands").isEqualTo(sequence);
  }

  @Test
  void tooManyParametersAreRefusedNamingTheField() throws Exception {
    ActionRequest.Builder request = run(UUID.randomUUID().toString(), "alpha", "build");
    for (int i = 0; i <= PipelineRunParameters.MAX_COUNT; i++) {
      request.putParameters("P" + i, "v");
    }

    ActionResult answer = ask(request.build());

    assertThat(answer.getOutcome()).isEqualTo("refused");
    assertThat(answer.getMessage()).startsWith("parameters: 101 given, at most 100");
  }

  @Test
  void aReportTheRecorderDoesNotAnswerIsTriedAgain() throws Exception {
    AtomicInteger seen = new AtomicInteger();
    String subject = BusNames.PIPELINE_RUN_QUEUED_SUBJECT;
    // a second recorder in the group that swallows its first report, so one try goes unanswered
    Dispatcher silentFirst = recorderSide.createDispatcher(message -> {
      if (seen.incrementAndGet() > 1) {
        recorderSide.publish(message.getReplyTo(), PipelineRunStatus.getDefaultInstance().toByteArray());
      }
    });
    recorder.unsubscribe(subject);
    silentFirst.subscribe(subject, BusNames.RECORDER_QUEUE_GROUP);
    recorderSide.flush(Duration.ofSeconds(5));
    try {
      PipelineRunReporter reporter = new PipelineRunReporter(() -> operatorSide, Clock.systemUTC(),
          Duration.ofMillis(100));
      boolean answered = reporter.send(PipelineRunQueued.newBuilder().setRequestId(UUID.randomUUID().toString())
          .setOutcome("queued").setQueueId(9).build(), 1).get(WAIT.toSeconds(), TimeUnit.SECONDS);

      assertThat(answered).isTrue();
      assertThat(seen).hasValue(2);
    } finally {
      recorderSide.closeDispatcher(silentFirst);
      recorder.subscribe(subject, BusNames.RECORDER_QUEUE_GROUP);
      recorderSide.flush(Duration.ofSeconds(5));
    }
  }

  private static ClusterActionResponder responder(KubernetesClient client, String ledgerNamespace,
      PipelineRunAction action) {
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ledgerNamespace).endMetadata()
        .build()).create();
    ActionLedger ledger = new ActionLedger(client, ledgerNamespace, Clock.systemUTC());
    ClusterDrain drain = new ClusterDrain(client, ledger, ActivityPublisher.withoutBus(CLUSTER, "operator"), () -> { });
    return new ClusterActionResponder(operatorSide, CLUSTER, ClusterRole.MEMBER, ledger, drain,
        ActivityPublisher.withoutBus(CLUSTER, "operator"), new BroodOperationActions(client, CLUSTER),
        new CellPoolScaleAction(client, CLUSTER), action);
  }

  private static ActionRequest.Builder run(String id, String team, String pipeline) {
    return ActionRequest.newBuilder().setRequestId(id).setVerb(PipelineRunAction.VERB).setCluster(CLUSTER)
        .setNamespace(NS).setName(team).setPipeline(pipeline).setUser("alice");
  }

  /** A cross-tenant call as the recorder forwards it: pipeline deploy of the Team, with the calling Team. */
  private static ActionRequest.Builder call(String id, String team, String callerTeam, String callerCluster) {
    return run(id, team, "deploy").setUser("team " + callerTeam + " (cluster " + callerCluster + ", job x run y)")
        .setCallerTeam(callerTeam).setCallerCluster(callerCluster);
  }

  /** What the recorder does: the request on the cluster's action route, the answer by reply. */
  private static ActionResult ask(ActionRequest request) throws Exception {
    Message reply = recorderSide.request(BusNames.clusterActions(CLUSTER), request.toByteArray(), WAIT);
    assertThat(reply).as("the operator answered").isNotNull();
    return ActionResult.parseFrom(reply.getData());
  }

  private static QueuedCommand queuedFor(ControllerIdentity controller) throws Exception {
    MessageInfo last = operatorSide.jetStreamManagement().getLastMessage(BusNames.COMMANDS_STREAM,
        BusNames.queuedCommands(CLUSTER, controller));
    return QueuedCommand.parseFrom(last.getData());
  }

  private static long lastSequence(ControllerIdentity controller) throws IOException, JetStreamApiException {
    return operatorSide.jetStreamManagement().getLastMessage(BusNames.COMMANDS_STREAM,
        BusNames.queuedCommands(CLUSTER, controller)).getSeq();
  }

  private static long lastSequenceOrZero(ControllerIdentity controller) throws IOException {
    try {
      return lastSequence(controller);
    } catch (JetStreamApiException noMessageYet) {
      return 0;
    }
  }

  /** What the gateway holding the cell's mite publishes once the mite answered the RunJob. */
  private static void publishResult(QueuedCommand queued, CommandResult.Outcome outcome, String message, long queueId)
      throws Exception {
    gatewaySide.publish(BusNames.queuedCommandResults(CLUSTER, ControllerIdentity.of(queued.getController())),
        QueuedCommandResult.newBuilder().setController(queued.getController()).setResult(CommandResult.newBuilder()
            .setCommandId(queued.getCommand().getCommandId()).setOutcome(outcome).setMessage(message)
            .setQueueId(queueId).setFinishedAtEpochMillis(System.currentTimeMillis())).build().toByteArray());
    gatewaySide.flush(Duration.ofSeconds(5));
  }

  private static ActivityEvent nextActivity(Subscription activity, String kind) throws Exception {
    Instant giveUp = Instant.now().plus(WAIT);
    while (Instant.now().isBefore(giveUp)) {
      Message message = activity.nextMessage(Duration.ofMillis(Math.max(1, Duration.between(Instant.now(), giveUp)
          .toMillis())));
      if (message == null) {
        break;
      }
      ActivityEvent event = ActivityEvent.parseFrom(message.getData());
      if (event.getKind().equals(kind)) {
        return event;
      }
    }
    throw new AssertionError("no " + kind + " activity within " + WAIT);
  }

  private static void team(KubernetesClient client, String name, String cellName, String pendingBecause) {
    team(client, name, cellName, pendingBecause, "[]");
  }

  private static void team(KubernetesClient client, String name, String cellName, String pendingBecause,
      String callableBy) {
    Team created = client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Team
        metadata: {name: %s, namespace: %s}
        spec:
          pool: shared
          poolNamespace: %s
          pipelines:
          - {name: build, repository: "https://git.example/alpha.git"}
          - {name: deploy, repository: "https://git.example/alpha.git"}
          callableBy: %s
        """.formatted(name, NS, POOL_NS, callableBy), Team.class)).create();
    TeamStatus status = new TeamStatus();
    status.phase = cellName == null ? TeamStatus.Phase.Pending : TeamStatus.Phase.Placed;
    status.cell = cellName;
    status.cellNamespace = cellName == null ? null : POOL_NS;
    status.message = pendingBecause;
    created.setStatus(status);
    client.resource(created).updateStatus();
  }
}
