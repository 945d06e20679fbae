package dev.varroa.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.protocol.BuildEventMessageId;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.ClaimDecision;
import dev.varroa.protocol.builds.v1.ClaimRequest;
import dev.varroa.protocol.builds.v1.JobSchedule;
import dev.varroa.protocol.builds.v1.JobScheduleInventory;
import dev.varroa.protocol.bus.v1.BuildEventGroup;
import dev.varroa.protocol.bus.v1.LedgerClaim;
import dev.varroa.protocol.bus.v1.PipelineCall;
import dev.varroa.protocol.builds.v1.PipelineCallAnswer;
import dev.varroa.protocol.builds.v1.PipelineCallRequest;
import dev.varroa.protocol.mite.v1.PipelineCallAsk;
import dev.varroa.protocol.mite.v1.PipelineCallReply;
import dev.varroa.protocol.mite.v1.ClaimAnswer;
import dev.varroa.protocol.mite.v1.ClaimAsk;
import dev.varroa.protocol.mite.v1.GatewayMessage;
import dev.varroa.protocol.mite.v1.MiteMessage;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.MessageHandler;
import io.nats.client.api.MessageInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Build events, job schedules, claims and pipeline calls over a real mite stream, a real nats-server and JetStream. */
class BuildDataPlaneIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  @TempDir
  static Path directory;

  private static final Duration LEDGER_WAIT = Duration.ofSeconds(1);
  private static final Duration REPLY = Duration.ofSeconds(10);

  private static CertificateAuthority ca;
  private static Gateway gateway;
  private static Connection recorder;
  private static TokenIssuer tokens;

  @BeforeAll
  static void startGateway() throws Exception {
    ca = CertificateAuthority.createFiles(directory.resolve("ca.pem"), directory.resolve("ca-key.pem"));
    gateway = Gateway.start(GatewaySettings.of("gateway-builds", NATS.server().url(), directory.resolve("ca.pem"),
            directory.resolve("ca-key.pem"))
        .withListen("127.0.0.1", 0)
        .withTlsNames(List.of("localhost"), List.of("127.0.0.1"))
        .withClusterName("cell-a")
        .withClaimLedgerWait(LEDGER_WAIT));
    recorder = NATS.server().connect();
    tokens = new TokenIssuer(recorder);
  }

  @AfterAll
  static void stopGateway() throws Exception {
    for (AutoCloseable closeable : new AutoCloseable[] {gateway, recorder}) {
      if (closeable != null) {
        closeable.close();
      }
    }
  }

  @Test
  void publishesABatchAsOneGroupWithTheCertificatesControllerBeforeAcknowledgingIt() throws Exception {
    TestMite mite = enroll();
    String subject = BusNames.builds(mite.identity());
    List<BuildEvent> events = new ArrayList<>(BuildEvents.run("run-" + UUID.randomUUID(), 2, 8));
    events.addAll(BuildEvents.run("run-" + UUID.randomUUID(), 0, 0));
    try (MiteStream stream = mite.connect(gateway, ca)) {
      stream.hello();

      stream.send(BuildEvents.batch(events));
      GatewayMessage ack = stream.next(REPLY);
      long storedWhenAcked = BuildEvents.stored(recorder, subject);

      assertThat(ack.getEventsAck().getKeysList()).containsExactlyElementsOf(BuildEvents.keys(events));
      assertThat(storedWhenAcked).isEqualTo(1);
      MessageInfo message = BuildEvents.last(recorder, subject);
      assertThat(message.getHeaders().getFirst("Nats-Msg-Id"))
          .isEqualTo(BuildEventMessageId.of(mite.identity(), events));
      BuildEventGroup group = BuildEvents.group(message);
      assertThat(group.getController()).isEqualTo(mite.identity().toRef());
      assertThat(group.getCluster()).isEqualTo("cell-a");
      assertThat(group.getGatewayId()).isEqualTo("gateway-builds");
      assertThat(group.getPublishedAtEpochMillis()).isPositive();
      assertThat(group.getEventsList()).containsExactlyElementsOf(events);
      assertThat(group.hasSchedules()).isFalse();
    }
  }

  @Test
  void theSameBatchPublishedTwiceIsStoredOnceAndAcknowledgedBothTimes() throws Exception {
    TestMite mite = enroll();
    String subject = BusNames.builds(mite.identity());
    List<BuildEvent> events = BuildEvents.run("run-" + UUID.randomUUID(), 3, 8);
    try (MiteStream stream = mite.connect(gateway, ca)) {
      stream.hello();

      stream.send(BuildEvents.batch(events));
      GatewayMessage first = stream.next(REPLY);
      stream.send(BuildEvents.batch(events));
      GatewayMessage replayed = stream.next(REPLY);

      assertThat(first.getEventsAck().getKeysList()).containsExactlyElementsOf(BuildEvents.keys(events));
      assertThat(replayed).isEqualTo(first);
      assertThat(BuildEvents.stored(recorder, subject)).isEqualTo(1);
    }
  }

  @Test
  void acknowledgesBatchesInTheOrderTheyArrived() throws Exception {
    TestMite mite = enroll();
    List<List<BuildEvent>> batches = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      // Uneven sizes so publishes finish in different times.
      batches.add(BuildEvents.run("run-" + i + "-" + UUID.randomUUID(), i % 3 == 0 ? 40 : 1, i % 3 == 0 ? 200 : 1));
    }
    try (MiteStream stream = mite.connect(gateway, ca)) {
      stream.hello();

      batches.forEach(batch -> stream.send(BuildEvents.batch(batch)));
      List<GatewayMessage> acks = new ArrayList<>();
      for (int i = 0; i < batches.size(); i++) {
        acks.add(stream.next(REPLY));
      }

      for (int i = 0; i < batches.size(); i++) {
        assertThat(acks.get(i).getEventsAck().getKeysList()).as("ack #" + i)
            .containsExactlyElementsOf(BuildEvents.keys(batches.get(i)));
      }
      assertThat(BuildEvents.stored(recorder, BusNames.builds(mite.identity()))).isEqualTo(batches.size());
    }
  }

  @Test
  void republishesTheJobScheduleInventoryWithoutAnsweringTheMite() throws Exception {
    TestMite mite = enroll();
    String subject = BusNames.builds(mite.identity());
    JobScheduleInventory inventory = JobScheduleInventory.newBuilder()
        .addJobs(JobSchedule.newBuilder().setJob("team/nightly").addTimerSpecs("H 2 * * *"))
        .addJobs(JobSchedule.newBuilder().setJob("team/hourly").addTimerSpecs("H * * * *").addTimerSpecs("@midnight"))
        .setObservedAtEpochMillis(System.currentTimeMillis())
        .build();
    List<BuildEvent> after = BuildEvents.run("run-" + UUID.randomUUID(), 0, 0);
    try (MiteStream stream = mite.connect(gateway, ca)) {
      stream.hello();

      stream.send(MiteMessage.newBuilder().setSchedules(inventory).build());
      await().atMost(REPLY).until(() -> BuildEvents.stored(recorder, subject) == 1);
      MessageInfo message = BuildEvents.last(recorder, subject);
      stream.send(BuildEvents.batch(after));

      assertThat(message.getHeaders().getFirst("Nats-Msg-Id"))
          .isEqualTo(BuildEventMessageId.of(mite.identity(), inventory));
      BuildEventGroup group = BuildEvents.group(message);
      assertThat(group.getSchedules()).isEqualTo(inventory);
      assertThat(group.getEventsList()).isEmpty();
      assertThat(group.getController()).isEqualTo(mite.identity().toRef());
      assertThat(group.getCluster()).isEqualTo("cell-a");
      // The first thing the mite hears after the inventory is the events' acknowledgement.
      assertThat(stream.next(REPLY).getEventsAck().getKeysList()).containsExactlyElementsOf(BuildEvents.keys(after));
    }
  }

  @Test
  void answersAClaimWithTheLedgersDecisionForTheCertificatesController() throws Exception {
    TestMite mite = enroll();
    List<LedgerClaim> asked = new CopyOnWriteArrayList<>();
    ClaimDecision granted = ClaimDecision.newBuilder().setDecision("granted").setCode("OK").setBuildNumber(42).build();
    Dispatcher ledger = ledger(message -> {
      try {
        asked.add(LedgerClaim.parseFrom(message.getData()));
      } catch (InvalidProtocolBufferException e) {
        throw new IllegalStateException(e);
      }
      recorder.publish(message.getReplyTo(), granted.toByteArray());
    });
    ClaimRequest claim = claim();
    try (MiteStream stream = mite.connect(gateway, ca)) {
      stream.hello();

      stream.send(ask("req-1", claim));
      ClaimAnswer answer = stream.next(REPLY).getClaimAnswer();

      assertThat(answer.getRequestId()).isEqualTo("req-1");
      assertThat(answer.getDecision()).isEqualTo(granted);
      assertThat(asked).containsExactly(LedgerClaim.newBuilder()
          .setController(mite.identity().toRef())
          .setCluster("cell-a")
          .setClaim(claim)
          .build());
    } finally {
      closeLedger(ledger);
    }
  }

  @Test
  void answersUnavailableAtOnceWhenNoLedgerListens() throws Exception {
    TestMite mite = enroll();
    try (MiteStream stream = mite.connect(gateway, ca)) {
      stream.hello();

      long started = System.nanoTime();
      stream.send(ask("req-nobody", claim()));
      ClaimAnswer answer = stream.next(REPLY).getClaimAnswer();

      assertThat(answer.getRequestId()).isEqualTo("req-nobody");
      assertThat(answer.getDecision().getDecision()).isEmpty();
      assertThat(answer.getDecision().getCode()).isEqualTo("UNAVAILABLE");
      assertThat(answer.getDecision().getReason()).contains("no responders").contains(BusNames.LEDGER_CLAIM_SUBJECT);
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(LEDGER_WAIT);
    }
  }

  @Test
  void answersUnavailableWhenTheLedgerIsSlowerThanTheBudgetWithoutHoldingUpEvents() throws Exception {
    TestMite mite = enroll();
    Dispatcher silent = ledger(message -> { });
    List<BuildEvent> events = BuildEvents.run("run-" + UUID.randomUUID(), 1, 1);
    try (MiteStream stream = mite.connect(gateway, ca)) {
      stream.hello();

      long started = System.nanoTime();
      stream.send(ask("req-slow", claim()));
      stream.send(BuildEvents.batch(events));
      GatewayMessage first = stream.next(REPLY);
      GatewayMessage second = stream.next(REPLY);
      Duration answeredAfter = Duration.ofNanos(System.nanoTime() - started);

      assertThat(first.getEventsAck().getKeysList()).containsExactlyElementsOf(BuildEvents.keys(events));
      ClaimAnswer answer = second.getClaimAnswer();
      assertThat(answer.getRequestId()).isEqualTo("req-slow");
      assertThat(answer.getDecision().getDecision()).isEmpty();
      assertThat(answer.getDecision().getCode()).isEqualTo("UNAVAILABLE");
      assertThat(answer.getDecision().getReason()).contains("did not answer within 1 s");
      assertThat(answeredAfter).isGreaterThanOrEqualTo(LEDGER_WAIT).isLessThan(LEDGER_WAIT.plusSeconds(3));
    } finally {
      closeLedger(silent);
    }
  }

  @Test
  void answersUnavailableWhenTheLedgersReplyIsUnreadable() throws Exception {
    TestMite mite = enroll();
    Dispatcher garbled = ledger(message ->
        recorder.publish(message.getReplyTo(), "not a decision".getBytes(StandardCharsets.UTF_8)));
    try (MiteStream stream = mite.connect(gateway, ca)) {
      stream.hello();

      stream.send(ask("req-garbled", claim()));
      ClaimAnswer answer = stream.next(REPLY).getClaimAnswer();

      assertThat(answer.getRequestId()).isEqualTo("req-garbled");
      assertThat(answer.getDecision().getDecision()).isEmpty();
      assertThat(answer.getDecision().getCode()).isEqualTo("UNAVAILABLE");
      assertThat(answer.getDecision().getReason()).contains("not a ClaimDecision");
    } finally {
      closeLedger(garbled);
    }
  }

  @Test
  void relaysAPipelineCallToTheRecorderAsTheCertificatesControllerAndAnswersTheMite() throws Exception {
    TestMite mite = enroll();
    List<PipelineCall> asked = new CopyOnWriteArrayList<>();
    PipelineCallAnswer queued = PipelineCallAnswer.newBuilder().setState("queued").setCode("OK").setCluster("cell-b")
        .setNamespace("payments").setTeam("payments").setPipeline("deploy").build();
    Dispatcher calls = recorder.createDispatcher(message -> {
      try {
        asked.add(PipelineCall.parseFrom(message.getData()));
      } catch (InvalidProtocolBufferException e) {
        throw new IllegalStateException(e);
      }
      recorder.publish(message.getReplyTo(), queued.toByteArray());
    });
    calls.subscribe(BusNames.PIPELINE_CALLS_SUBJECT, BusNames.RECORDER_QUEUE_GROUP);
    recorder.flush(Duration.ofSeconds(5));
    // the job names another namespace's folder: who calls is still the stream's controller, named by the recorder
    PipelineCallRequest call = pipelineCall();
    try (MiteStream stream = mite.connect(gateway, ca)) {
      stream.hello();

      stream.send(MiteMessage.newBuilder().setPipelineCall(PipelineCallAsk.newBuilder().setRequestId("call-1")
          .setCall(call).setStatusOnly(true)).build());
      PipelineCallReply reply = stream.next(REPLY).getPipelineCallAnswer();

      assertThat(reply.getRequestId()).isEqualTo("call-1");
      assertThat(reply.getAnswer()).isEqualTo(queued);
      assertThat(asked).containsExactly(PipelineCall.newBuilder()
          .setController(mite.identity().toRef())
          .setCluster("cell-a")
          .setCall(call)
          .setStatusOnly(true)
          .build());
    } finally {
      closeLedger(calls);
    }
  }

  @Test
  void answersAPipelineCallUnavailableNamingTheSubjectWhenNoRecorderListens() throws Exception {
    TestMite mite = enroll();
    try (MiteStream stream = mite.connect(gateway, ca)) {
      stream.hello();

      stream.send(MiteMessage.newBuilder().setPipelineCall(PipelineCallAsk.newBuilder().setRequestId("call-nobody")
          .setCall(pipelineCall())).build());
      PipelineCallReply reply = stream.next(REPLY).getPipelineCallAnswer();

      assertThat(reply.getRequestId()).isEqualTo("call-nobody");
      assertThat(reply.getAnswer().getState()).isEmpty();
      assertThat(reply.getAnswer().getCode()).isEqualTo("UNAVAILABLE");
      assertThat(reply.getAnswer().getMessage()).contains("no recorder is listening", BusNames.PIPELINE_CALLS_SUBJECT);
    }
  }

  private static PipelineCallRequest pipelineCall() {
    return PipelineCallRequest.newBuilder().setCallId(UUID.randomUUID().toString()).setRunId("run-caller")
        .setJob("elsewhere_mallory/release").setTeam("payments").setPipeline("deploy").putParameters("VERSION", "1.4")
        .build();
  }

  private static void closeLedger(Dispatcher dispatcher) throws Exception {
    recorder.closeDispatcher(dispatcher);
    // Once the flush returns, the server has the unsubscribe: the next test finds no responder left over.
    recorder.flush(Duration.ofSeconds(5));
  }

  private static TestMite enroll() throws Exception {
    return TestMite.enroll(gateway, ca, tokens, RegistrationIT.newController());
  }

  private static ClaimRequest claim() {
    return ClaimRequest.newBuilder().setRunId("run-" + UUID.randomUUID()).setJob("team/app/main").setQueueId(17)
        .build();
  }

  private static MiteMessage ask(String requestId, ClaimRequest claim) {
    return MiteMessage.newBuilder().setClaim(ClaimAsk.newBuilder().setRequestId(requestId).setClaim(claim)).build();
  }

  /** Plays the recorder's ledger: subscribed in its queue group before this returns. */
  private static Dispatcher ledger(MessageHandler handler) throws Exception {
    Dispatcher dispatcher = recorder.createDispatcher(handler);
    dispatcher.subscribe(BusNames.LEDGER_CLAIM_SUBJECT, BusNames.RECORDER_QUEUE_GROUP);
    recorder.flush(Duration.ofSeconds(5));
    return dispatcher;
  }
}
