package dev.varroa.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.gateway.command.QueuedCommandNotices;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.ProtocolVersion;
import dev.varroa.protocol.bus.v1.GatewayCommand;
import dev.varroa.protocol.bus.v1.GatewayPresence;
import dev.varroa.protocol.bus.v1.JenkinsTokenGrant;
import dev.varroa.protocol.bus.v1.JenkinsTokenGrantRequest;
import dev.varroa.protocol.bus.v1.MiteRoute;
import dev.varroa.protocol.bus.v1.QueuedCommand;
import dev.varroa.protocol.bus.v1.QueuedCommandResult;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.DesiredState;
import dev.varroa.protocol.mite.v1.File;
import dev.varroa.protocol.mite.v1.GatewayMessage;
import dev.varroa.protocol.mite.v1.ControllerRef;
import dev.varroa.protocol.mite.v1.JenkinsToken;
import dev.varroa.protocol.mite.v1.JenkinsTokenRequest;
import dev.varroa.protocol.mite.v1.MiteMessage;
import dev.varroa.protocol.mite.v1.ObservedState;
import dev.varroa.protocol.mite.v1.OneShot;
import dev.varroa.protocol.mite.v1.Parameter;
import dev.varroa.protocol.mite.v1.RenewRequest;
import dev.varroa.protocol.mite.v1.RenewResponse;
import dev.varroa.protocol.mite.v1.RunJob;
import dev.varroa.protocol.mite.v1.Welcome;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.grpc.Status;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamSubscription;
import io.nats.client.PullSubscribeOptions;
import io.nats.client.Message;
import io.nats.client.Subscription;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueOperation;
import io.nats.client.impl.NatsMessage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class MiteChannelIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  @TempDir
  static Path directory;

  private static final String CLUSTER = GatewaySettings.DEFAULT_CLUSTER_NAME;
  private static final Duration QUEUED_ACK_WAIT = Duration.ofSeconds(2);
  private static final Duration QUEUED_PROGRESS_INTERVAL = Duration.ofMillis(500);

  private static CertificateAuthority ca;
  private static Gateway gatewayA;
  private static Gateway gatewayB;
  private static Connection operator;
  private static TokenIssuer tokens;

  @BeforeAll
  static void startGateways() throws Exception {
    ca = CertificateAuthority.createFiles(directory.resolve("ca.pem"), directory.resolve("ca-key.pem"));
    gatewayA = Gateway.start(settings("gateway-a").withQueuedCommandTiming(QUEUED_ACK_WAIT, QUEUED_PROGRESS_INTERVAL));
    gatewayB = Gateway.start(settings("gateway-b"));
    operator = NATS.server().connect();
    tokens = new TokenIssuer(operator);
  }

  @AfterAll
  static void stopGateways() throws Exception {
    for (AutoCloseable closeable : new AutoCloseable[] {gatewayA, gatewayB, operator}) {
      if (closeable != null) {
        closeable.close();
      }
    }
  }

  static GatewaySettings settings(String id) {
    return GatewaySettings.of(id, NATS.server().url(), directory.resolve("ca.pem"), directory.resolve("ca-key.pem"))
        .withListen("127.0.0.1", 0)
        .withTlsNames(List.of("localhost"), List.of("127.0.0.1"));
  }

  @Test
  void refusesStreamWithoutClientCertificate() throws Exception {
    try (MiteStream stream = MiteStream.open(Channels.serverTls(gatewayA.port(), ca.certificatePem()))) {
      stream.sendHello();
      Status status = stream.closed().get(10, TimeUnit.SECONDS);
      assertThat(status.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
      assertThat(status.getDescription()).contains("no client certificate");
    }
  }

  @Test
  void closesAStreamWhoseFirstMessageIsNotHello() throws Exception {
    TestMite mite = enroll(gatewayA);
    try (MiteStream stream = mite.connect(gatewayA, ca)) {
      stream.heartbeat(1);

      Status status = stream.closed().get(10, TimeUnit.SECONDS);

      assertThat(status.getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
      assertThat(status.getDescription()).contains("must be Hello");
    }
  }

  @Test
  void relaysAJenkinsTokenTheOperatorGrantsForTheCertificatesController() throws Exception {
    TestMite mite = enroll(gatewayA);
    List<ControllerRef> askedFor = new CopyOnWriteArrayList<>();
    Dispatcher operatorSide = operator.createDispatcher(request -> {
      try {
        askedFor.add(JenkinsTokenGrantRequest.parseFrom(request.getData()).getController());
      } catch (InvalidProtocolBufferException e) {
        throw new IllegalStateException(e);
      }
      operator.publish(request.getReplyTo(), JenkinsTokenGrant.newBuilder()
          .setToken(JenkinsToken.newBuilder().setJwt("granted-jwt").setExpiresAtEpochMillis(42)).build().toByteArray());
    });
    operatorSide.subscribe(BusNames.jenkinsTokenRequests(CLUSTER), BusNames.OPERATOR_QUEUE_GROUP);
    operator.flush(Duration.ofSeconds(5));
    try (MiteStream stream = mite.connect(gatewayA, ca)) {
      stream.hello();

      stream.send(MiteMessage.newBuilder().setTokenRequest(JenkinsTokenRequest.getDefaultInstance()).build());
      GatewayMessage answer = stream.next(Duration.ofSeconds(10));

      assertThat(answer.getJenkinsToken().getJwt()).isEqualTo("granted-jwt");
      assertThat(askedFor).containsExactly(mite.identity().toRef());
    } finally {
      operator.closeDispatcher(operatorSide);
    }
  }

  @Test
  void welcomesMiteAndKeepsItsRouteUntilTheStreamEnds() throws Exception {
    TestMite mite = enroll(gatewayA);
    try (MiteStream stream = mite.connect(gatewayA, ca)) {
      Welcome welcome = stream.hello();

      X509Certificate certificate = RegistrationIT.parseChain(mite.chainPem()).get(0);
      assertThat(welcome.getGatewayId()).isEqualTo("gateway-a");
      assertThat(welcome.getHeartbeatIntervalSeconds()).isEqualTo(15);
      assertThat(welcome.getCertificateNotAfterEpochMillis()).isEqualTo(certificate.getNotAfter().getTime());
      MiteRoute route = awaitRoute(mite.identity());
      assertThat(route.getGatewayId()).isEqualTo("gateway-a");
      assertThat(route.getSessionId()).isNotBlank();
      assertThat(route.getController()).isEqualTo(mite.identity().toRef());
      assertThat(route.getPodName()).isEqualTo("test-pod-0");
      assertThat(route.getMiteVersion()).isEqualTo("test-mite");
      assertThat(route.getCertificateNotAfterEpochMillis()).isEqualTo(certificate.getNotAfter().getTime());
      assertThat(route.getObserved().getJenkinsVersion()).isEqualTo("2.500");
      assertThat(route.getStreamDegraded()).isFalse();
      // the certificate the stream presents, whose key the operator seals the mite's secrets to
      assertThat(RegistrationIT.parseChain(route.getCertificatePem())).containsExactly(certificate);
      assertThat(route.getProtocolVersion()).isEqualTo(ProtocolVersion.CURRENT);

      stream.completeStream();
      await().atMost(Duration.ofSeconds(10)).until(() -> readRoute(mite.identity()) == null);
    }
  }

  @Test
  void rewritesTheRouteWhenObservedStateChangesButNotOnHeartbeats() throws Exception {
    TestMite mite = enroll(gatewayA);
    try (MiteStream stream = mite.connect(gatewayA, ca)) {
      stream.hello();
      awaitRoute(mite.identity());
      long claimedRevision = routeEntry(mite.identity()).getRevision();

      for (long sequence = 1; sequence <= 3; sequence++) {
        stream.heartbeat(sequence);
      }
      stream.send(MiteMessage.newBuilder().setObserved(ObservedState.newBuilder()
          .setJenkinsReachable(true).setJenkinsVersion("2.500").setRunningBuilds(3)).build());

      await().atMost(Duration.ofSeconds(10))
          .until(() -> readRoute(mite.identity()).getObserved().getRunningBuilds() == 3);
      assertThat(routeEntry(mite.identity()).getRevision()).isEqualTo(claimedRevision + 1);
    }
  }

  @Test
  void deliversCommandRequestedOverNatsAndRepliesWithTheMitesResult() throws Exception {
    TestMite mite = enroll(gatewayA);
    try (MiteStream stream = mite.connect(gatewayA, ca)) {
      stream.hello();
      Command command = desiredState("cmd-" + UUID.randomUUID(), "secret-value", Instant.now().plusSeconds(30));

      CommandResult result = requestCommand("gateway-a", mite.identity(), command);

      assertThat(result.getCommandId()).isEqualTo(command.getCommandId());
      assertThat(result.getOutcome()).isEqualTo(CommandResult.Outcome.SUCCEEDED);
      assertThat(result.getBundleDigest()).isEqualTo("sha256:bundle");
      assertThat(stream.commands()).containsExactly(command);
    }
  }

  @Test
  void answersNotConnectedForAMiteAnotherGatewayHoldsAndForwardsNothing() throws Exception {
    TestMite mite = enroll(gatewayA);
    try (MiteStream stream = mite.connect(gatewayA, ca)) {
      stream.hello();
      awaitRoute(mite.identity());
      Command command = desiredState("cmd-" + UUID.randomUUID(), "secret-value", Instant.now().plusSeconds(30));

      CommandResult result = requestCommand("gateway-b", mite.identity(), command);

      // A gateway never sends a command itself: the operator sends again to the gateway the route names.
      assertThat(result.getOutcome()).isEqualTo(CommandResult.Outcome.NOT_CONNECTED);
      assertThat(result.getMessage()).contains("gateway gateway-b holds no stream for " + mite.identity().routeKey());
      assertThat(stream.commands()).isEmpty();
    }
  }

  @Test
  void repliesDeadlineExceededWhenTheMiteDoesNotAnswerInTime() throws Exception {
    TestMite mite = enroll(gatewayA);
    try (MiteStream stream = mite.connect(gatewayA, ca)) {
      stream.answerCommandsWith(MiteStream.neverAnswer());
      stream.hello();
      Command command = desiredState("cmd-" + UUID.randomUUID(), "secret-value", Instant.now().plusSeconds(1));

      CommandResult result = requestCommand("gateway-a", mite.identity(), command);

      assertThat(result.getOutcome()).isEqualTo(CommandResult.Outcome.DEADLINE_EXCEEDED);
      assertThat(result.getMessage()).contains("deadline");
      assertThat(stream.commands()).hasSize(1);
    }
  }

  @Test
  void repliesNotConnectedWhenNoGatewayHoldsTheMite() throws Exception {
    ControllerIdentity nobodyHolds = RegistrationIT.newController();

    CommandResult viaA = requestCommand("gateway-a", nobodyHolds, oneShot("cmd-" + UUID.randomUUID()));
    CommandResult viaB = requestCommand("gateway-b", nobodyHolds, oneShot("cmd-" + UUID.randomUUID()));

    assertThat(viaA.getOutcome()).isEqualTo(CommandResult.Outcome.NOT_CONNECTED);
    assertThat(viaB.getOutcome()).isEqualTo(CommandResult.Outcome.NOT_CONNECTED);
  }

  @Test
  void refusesTheStreamOfACertificateWhoseControllerWasDeleted() throws Exception {
    TestMite mite = enroll(gatewayA);
    try (MiteStream before = mite.connect(gatewayA, ca)) {
      before.hello();
    }

    tokens.forgetLive(CLUSTER, mite.identity());

    try (MiteStream after = mite.connect(gatewayA, ca)) {
      after.sendHello();
      Status status = after.closed().get(10, TimeUnit.SECONDS);
      assertThat(status.getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
      assertThat(status.getDescription()).startsWith("CONTROLLER_GONE: no Controller " + mite.identity().routeKey());
      assertThat(after.nothingReceived()).isTrue();
    }
  }

  @Test
  void refusesTheStreamOfACertificateNamingAnotherUidOfTheSameController() throws Exception {
    TestMite mite = enroll(gatewayA);
    // The Controller was deleted and created again under the same name: a new UID.
    tokens.recordLive(CLUSTER, new ControllerIdentity(mite.identity().namespace(), mite.identity().name(),
        UUID.randomUUID().toString()));

    try (MiteStream stream = mite.connect(gatewayA, ca)) {
      stream.sendHello();
      Status status = stream.closed().get(10, TimeUnit.SECONDS);
      assertThat(status.getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
      assertThat(status.getDescription()).startsWith("CONTROLLER_GONE: ").contains("the certificate names UID "
          + mite.identity().uid());
    }
  }

  @Test
  void newerStreamOfTheSameControllerReplacesTheOlderOne() throws Exception {
    TestMite mite = enroll(gatewayA);
    try (MiteStream first = mite.connect(gatewayA, ca); MiteStream second = mite.connect(gatewayA, ca)) {
      first.hello();
      String firstSession = awaitRoute(mite.identity()).getSessionId();
      second.hello();

      assertThat(first.closed().get(10, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.ABORTED);
      await().atMost(Duration.ofSeconds(10)).until(() -> !readRoute(mite.identity()).getSessionId().equals(firstSession));
      CommandResult result = requestCommand("gateway-a", mite.identity(), oneShot("cmd-" + UUID.randomUUID()));
      assertThat(result.getOutcome()).isEqualTo(CommandResult.Outcome.SUCCEEDED);
      assertThat(second.commands()).hasSize(1);
      assertThat(readRoute(mite.identity())).isNotNull();
    }
  }

  @Test
  void closesAStreamThatStaysSilentForThreeHeartbeatIntervals() throws Exception {
    try (Gateway quick = Gateway.start(settings("gateway-quick").withHeartbeatInterval(Duration.ofMillis(300)))) {
      TestMite mite = enroll(quick);
      try (MiteStream stream = mite.connect(quick, ca)) {
        Welcome welcome = stream.hello();
        assertThat(welcome.getGatewayId()).isEqualTo("gateway-quick");

        Status status = stream.closed().get(10, TimeUnit.SECONDS);

        assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(status.getDescription()).contains("3 heartbeat intervals");
        await().atMost(Duration.ofSeconds(10)).until(() -> readRoute(mite.identity()) == null);
      }
    }
  }

  @Test
  void keepsAStreamThatSendsHeartbeats() throws Exception {
    Duration interval = Duration.ofMillis(300);
    try (Gateway quick = Gateway.start(settings("gateway-heartbeats").withHeartbeatInterval(interval))) {
      TestMite mite = enroll(quick);
      try (MiteStream stream = mite.connect(quick, ca)) {
        stream.hello();
        long[] sequence = {0};
        await().pollInterval(interval).during(interval.multipliedBy(8)).atMost(interval.multipliedBy(12))
            .until(() -> {
              stream.heartbeat(++sequence[0]);
              return !stream.closed().isDone();
            });
      }
    }
  }

  @Test
  void closesTheStreamWhenTheClientCertificateExpires() throws Exception {
    ControllerIdentity controller = RegistrationIT.newController();
    MiteKeys keys = MiteKeys.generate();
    Instant expiresAt = Instant.now().plusSeconds(4);
    String shortLivedChain = ca.signClientCertificate(CertificateAuthority.parseCertificationRequest(keys.csrDer()),
        controller, expiresAt.minus(CertificateAuthority.CLIENT_CERTIFICATE_LIFETIME)).certificateChainPem();
    TestMite mite = new TestMite(controller, keys, shortLivedChain);
    tokens.recordLive(CLUSTER, controller);
    try (MiteStream stream = mite.connect(gatewayA, ca)) {
      Welcome welcome = stream.hello();
      assertThat(Instant.ofEpochMilli(welcome.getCertificateNotAfterEpochMillis()))
          .isCloseTo(expiresAt, within(1, ChronoUnit.SECONDS));

      Status status = stream.closed().get(15, TimeUnit.SECONDS);

      assertThat(status.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
      assertThat(status.getDescription()).contains("expired");
      assertThat(Instant.now()).isAfterOrEqualTo(expiresAt.truncatedTo(ChronoUnit.SECONDS));
    }
  }

  @Test
  void renewsTheCertificateOverTheStream() throws Exception {
    TestMite mite = enroll(gatewayA);
    try (MiteStream stream = mite.connect(gatewayA, ca)) {
      stream.hello();
      MiteKeys renewedKeys = MiteKeys.generate();

      stream.send(MiteMessage.newBuilder().setRenew(RenewRequest.newBuilder()
          .setCsrDer(ByteString.copyFrom(renewedKeys.csrDer()))).build());
      GatewayMessage answer = stream.next(Duration.ofSeconds(10));

      assertThat(answer.hasRenewed()).isTrue();
      RenewResponse renewed = answer.getRenewed();
      X509Certificate leaf = RegistrationIT.parseChain(renewed.getCertificateChainPem()).get(0);
      assertThat(leaf.getPublicKey()).isEqualTo(renewedKeys.keys().getPublic());
      assertThat(leaf.getSubjectAlternativeNames()).containsExactly(List.of(6, mite.identity().toString()));
      assertThat(leaf.getNotAfter().getTime()).isEqualTo(renewed.getNotAfterEpochMillis());
      assertThat(leaf.getNotAfter().toInstant()).isCloseTo(
          Instant.now().plus(CertificateAuthority.CLIENT_CERTIFICATE_LIFETIME), within(1, ChronoUnit.MINUTES));

      TestMite renewedMite = new TestMite(mite.identity(), renewedKeys, renewed.getCertificateChainPem());
      try (MiteStream next = renewedMite.connect(gatewayA, ca)) {
        assertThat(next.hello().getGatewayId()).isEqualTo("gateway-a");
      }
    }
  }

  @Test
  void runsASlowQueuedCommandOnceWhileExtendingItsAckWait() throws Exception {
    TestMite mite = enroll(gatewayA);
    try (MiteStream stream = mite.connect(gatewayA, ca)) {
      stream.answerCommandsWith(MiteStream.succeedAfter(QUEUED_ACK_WAIT.multipliedBy(3)));
      stream.hello();
      Subscription results = operator.subscribe(BusNames.queuedCommandResults(CLUSTER, mite.identity()));
      operator.flush(Duration.ofSeconds(5));
      Command command = oneShot("queued-" + UUID.randomUUID());

      queue(mite.identity(), command);
      operator.publish(QueuedCommandNotices.subject(CLUSTER, "gateway-a"), mite.identity().toRef().toByteArray());

      // Another puller on the same consumer (a second gateway) gets the message back only if its ack wait lapses.
      await().atMost(Duration.ofSeconds(10)).until(() -> stream.commands().size() == 1);
      JetStreamSubscription rival = operator.jetStream().subscribe(BusNames.queuedCommands(CLUSTER, mite.identity()),
          PullSubscribeOptions.bind(BusNames.COMMANDS_STREAM, durableOf(mite.identity())));
      List<Message> redelivered = rival.fetch(1, QUEUED_ACK_WAIT.multipliedBy(2));
      rival.unsubscribe();
      assertThat(redelivered).as("redeliveries while the command ran").isEmpty();

      Message published = results.nextMessage(Duration.ofSeconds(30));
      assertThat(published).as("a QueuedCommandResult").isNotNull();
      QueuedCommandResult result = QueuedCommandResult.parseFrom(published.getData());
      assertThat(result.getController()).isEqualTo(mite.identity().toRef());
      assertThat(result.getResult().getCommandId()).isEqualTo(command.getCommandId());
      assertThat(result.getResult().getOutcome()).isEqualTo(CommandResult.Outcome.SUCCEEDED);
      await().during(QUEUED_ACK_WAIT.multipliedBy(2)).atMost(QUEUED_ACK_WAIT.multipliedBy(3))
          .until(() -> stream.commands().size() == 1);
      await().atMost(Duration.ofSeconds(10)).until(() -> !hasQueued(mite.identity())
          && !operator.jetStreamManagement().getConsumerNames(BusNames.COMMANDS_STREAM)
              .contains(durableOf(mite.identity())));
    }
  }

  @Test
  void runsCommandsQueuedBeforeTheMiteConnected() throws Exception {
    TestMite mite = enroll(gatewayB);
    Subscription results = operator.subscribe(BusNames.queuedCommandResults(CLUSTER, mite.identity()));
    operator.flush(Duration.ofSeconds(5));
    Command first = oneShot("queued-" + UUID.randomUUID());
    Command second = oneShot("queued-" + UUID.randomUUID());
    queue(mite.identity(), first);
    queue(mite.identity(), second);

    try (MiteStream stream = mite.connect(gatewayB, ca)) {
      stream.hello();

      List<String> finished = List.of(
          QueuedCommandResult.parseFrom(results.nextMessage(Duration.ofSeconds(20)).getData()).getResult().getCommandId(),
          QueuedCommandResult.parseFrom(results.nextMessage(Duration.ofSeconds(20)).getData()).getResult().getCommandId());
      assertThat(finished).containsExactly(first.getCommandId(), second.getCommandId());
      assertThat(stream.commands()).containsExactly(first, second);
    }
  }

  @Test
  void relaysAQueuedRunJobToItsMiteAndPublishesTheResultWithTheQueueId() throws Exception {
    TestMite mite = enroll(gatewayB);
    Subscription results = operator.subscribe(BusNames.queuedCommandResults(CLUSTER, mite.identity()));
    operator.flush(Duration.ofSeconds(5));
    Command runJob = Command.newBuilder()
        .setCommandId("queued-" + UUID.randomUUID())
        .setDeadlineEpochMillis(Instant.now().plusSeconds(60).toEpochMilli())
        .setRunJob(RunJob.newBuilder().setJob("team-a/build")
            .addParameters(Parameter.newBuilder().setName("TARGET").setValue("eu"))
            .setReason("varroactl run pipeline by alice, request r-1"))
        .build();
    // queued while the mite is away, as the operator queues it for a parked cell
    queue(mite.identity(), runJob);

    try (MiteStream stream = mite.connect(gatewayB, ca)) {
      stream.answerCommandsWith(command -> CompletableFuture.completedFuture(CommandResult.newBuilder()
          .setCommandId(command.getCommandId())
          .setOutcome(CommandResult.Outcome.SUCCEEDED)
          .setMessage("Jenkins queued a build of team-a/build as queue item 17")
          .setJenkinsStatus(201)
          .setQueueId(17)
          .build()));
      stream.hello();

      QueuedCommandResult result = QueuedCommandResult.parseFrom(results.nextMessage(Duration.ofSeconds(20)).getData());
      assertThat(stream.commands()).containsExactly(runJob);
      assertThat(result.getController()).isEqualTo(mite.identity().toRef());
      assertThat(result.getResult().getCommandId()).isEqualTo(runJob.getCommandId());
      assertThat(result.getResult().getOutcome()).isEqualTo(CommandResult.Outcome.SUCCEEDED);
      assertThat(result.getResult().getQueueId()).isEqualTo(17);
      assertThat(result.getResult().getJenkinsStatus()).isEqualTo(201);
      await().atMost(Duration.ofSeconds(10)).until(() -> !hasQueued(mite.identity()));
    }
  }

  @Test
  void refusesDesiredStateThatArrivesThroughTheQueue() throws Exception {
    TestMite mite = enroll(gatewayB);
    Subscription results = operator.subscribe(BusNames.queuedCommandResults(CLUSTER, mite.identity()));
    operator.flush(Duration.ofSeconds(5));
    Command leaked = desiredState("queued-" + UUID.randomUUID(), "must-not-be-queued", Instant.now().plusSeconds(60));
    queue(mite.identity(), leaked);

    try (MiteStream stream = mite.connect(gatewayB, ca)) {
      stream.hello();

      QueuedCommandResult result = QueuedCommandResult.parseFrom(results.nextMessage(Duration.ofSeconds(20)).getData());
      assertThat(result.getResult().getOutcome()).isEqualTo(CommandResult.Outcome.REJECTED);
      assertThat(result.getResult().getMessage()).contains("never travels through JetStream");
      assertThat(stream.commands()).isEmpty();
    }
  }

  @Test
  void desiredStateLeavesNoSecretInTheJetStreamStore() throws Exception {
    TestMite mite = enroll(gatewayA);
    String secret = "tenant-secret-" + UUID.randomUUID();
    try (MiteStream stream = mite.connect(gatewayA, ca)) {
      stream.hello();
      Command command = desiredState("cmd-" + UUID.randomUUID(), secret, Instant.now().plusSeconds(30));

      assertThat(requestCommand("gateway-a", mite.identity(), command).getOutcome())
          .isEqualTo(CommandResult.Outcome.SUCCEEDED);
      assertThat(stream.commands().get(0).getDesiredState().getSecretFiles(0).getContent().toStringUtf8())
          .isEqualTo(secret);
    }
    // A canary queued for a controller nobody holds shows the scan sees what JetStream wrote.
    String canary = "canary-" + UUID.randomUUID();
    queue(RegistrationIT.newController(), oneShot(canary));
    Path store = NATS.server().storeDirectory();
    await().atMost(Duration.ofSeconds(30))
        .until(() -> StoreScan.finds(store, canary.getBytes(StandardCharsets.UTF_8)));

    assertThat(StoreScan.finds(store, secret.getBytes(StandardCharsets.UTF_8))).isFalse();
    assertThat(StoreScan.finds(store, ("jwt-" + secret).getBytes(StandardCharsets.UTF_8))).isFalse();
  }

  @Test
  void aGracefulStopEndsItsStreamsAndRemovesItsRoutesAndPresence() throws Exception {
    Gateway leaving = Gateway.start(settings("gateway-leaving"));
    TestMite mite = enroll(leaving);
    try (MiteStream stream = mite.connect(leaving, ca)) {
      stream.hello();
      awaitRoute(mite.identity());
      GatewayPresence presence = readPresence("gateway-leaving");
      assertThat(presence.getGatewayId()).isEqualTo("gateway-leaving");

      leaving.close();

      assertThat(stream.closed().get(10, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.UNAVAILABLE);
      assertThat(readRoute(mite.identity())).isNull();
      assertThat(readPresence("gateway-leaving")).isNull();
    } finally {
      leaving.close();
    }
  }

  @Test
  void aCrashedGatewayLeavesItsRouteAndCommandsForItsMiteAreNotConnected() throws Exception {
    Gateway doomed = Gateway.start(settings("gateway-doomed"));
    TestMite mite = enroll(doomed);
    try (MiteStream stream = mite.connect(doomed, ca)) {
      stream.hello();
      String session = awaitRoute(mite.identity()).getSessionId();

      doomed.crash();

      assertThat(stream.closed().get(10, TimeUnit.SECONDS).getCode())
          .isIn(Status.Code.UNAVAILABLE, Status.Code.CANCELLED);
      MiteRoute left = readRoute(mite.identity());
      assertThat(left.getGatewayId()).isEqualTo("gateway-doomed");
      assertThat(left.getSessionId()).isEqualTo(session);
      CommandResult result = requestCommand("gateway-a", mite.identity(), oneShot("cmd-" + UUID.randomUUID()));
      assertThat(result.getOutcome()).isEqualTo(CommandResult.Outcome.NOT_CONNECTED);
    } finally {
      doomed.close();
    }
  }

  private static TestMite enroll(Gateway gateway) throws Exception {
    return TestMite.enroll(gateway, ca, tokens, RegistrationIT.newController());
  }

  private static CommandResult requestCommand(String gatewayId, ControllerIdentity controller, Command command)
      throws Exception {
    Message reply = operator.request(BusNames.gatewayCommands(CLUSTER, gatewayId), GatewayCommand.newBuilder()
        .setController(controller.toRef())
        .setCommand(command)
        .build()
        .toByteArray(), Duration.ofSeconds(30));
    assertThat(reply).as("a reply from " + gatewayId).isNotNull();
    return CommandResult.parseFrom(reply.getData());
  }

  private static void queue(ControllerIdentity controller, Command command) throws Exception {
    operator.jetStream().publish(BusNames.queuedCommands(CLUSTER, controller), QueuedCommand.newBuilder()
        .setController(controller.toRef())
        .setCommand(command)
        .build()
        .toByteArray());
  }

  private static String durableOf(ControllerIdentity controller) {
    return "gateway-" + CLUSTER + "-" + BusNames.token(controller.routeKey());
  }

  private static boolean hasQueued(ControllerIdentity controller) throws Exception {
    try {
      operator.jetStreamManagement().getLastMessage(BusNames.COMMANDS_STREAM, BusNames.queuedCommands(CLUSTER, controller));
      return true;
    } catch (JetStreamApiException e) {
      return false;
    }
  }

  static Command desiredState(String commandId, String secret, Instant deadline) {
    return Command.newBuilder()
        .setCommandId(commandId)
        .setDeadlineEpochMillis(deadline.toEpochMilli())
        .setDesiredState(DesiredState.newBuilder()
            .setBundleDigest("sha256:bundle")
            .addJcascFiles(File.newBuilder().setPath("jenkins.yaml")
                .setContent(ByteString.copyFromUtf8("jenkins:\n  systemMessage: hello\n")))
            .addSecretFiles(File.newBuilder().setPath("tenant/token").setContent(ByteString.copyFromUtf8(secret)))
            .setJenkinsToken(JenkinsToken.newBuilder().setJwt("jwt-" + secret)
                .setExpiresAtEpochMillis(deadline.toEpochMilli())))
        .build();
  }

  static Command oneShot(String commandId) {
    return Command.newBuilder()
        .setCommandId(commandId)
        .setDeadlineEpochMillis(Instant.now().plusSeconds(60).toEpochMilli())
        .setOneShot(OneShot.newBuilder().setAction(OneShot.Action.RELOAD_CONFIGURATION))
        .build();
  }

  private static MiteRoute awaitRoute(ControllerIdentity controller) {
    return await().atMost(Duration.ofSeconds(10)).until(() -> readRoute(controller), route -> route != null);
  }

  private static GatewayPresence readPresence(String gatewayId) throws Exception {
    KeyValueEntry entry = operator.keyValue(BusNames.GATEWAYS_BUCKET).get(BusNames.token(gatewayId));
    return entry == null || entry.getOperation() != KeyValueOperation.PUT ? null
        : GatewayPresence.parseFrom(entry.getValue());
  }

  private static KeyValueEntry routeEntry(ControllerIdentity controller) throws Exception {
    return operator.keyValue(BusNames.MITE_ROUTES_BUCKET).get(controller.routeKey());
  }

  private static MiteRoute readRoute(ControllerIdentity controller) throws Exception {
    KeyValueEntry entry = routeEntry(controller);
    if (entry == null || entry.getOperation() != KeyValueOperation.PUT) {
      return null;
    }
    return MiteRoute.parseFrom(entry.getValue());
  }
}
