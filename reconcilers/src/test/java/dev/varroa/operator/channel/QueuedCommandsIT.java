package dev.varroa.operator.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import com.nimbusds.jwt.SignedJWT;
import dev.varroa.gateway.Gateway;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.gateway.MiteStream;
import dev.varroa.gateway.StoreScan;
import dev.varroa.gateway.TestMite;
import dev.varroa.gateway.TokenIssuer;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.operator.backup.ChannelQuietDown;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.activity.v1.ActivityEvent;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.bus.v1.QueuedCommandResult;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.DesiredState;
import dev.varroa.protocol.mite.v1.File;
import dev.varroa.protocol.mite.v1.GatewayMessage;
import dev.varroa.protocol.mite.v1.OneShot;
import dev.varroa.protocol.mite.v1.Parameter;
import dev.varroa.protocol.mite.v1.RunJob;
import dev.varroa.protocol.seal.SealedCommands;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.Subscription;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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

/**
 * Queued one-shot commands end to end on a real nats-server: the operator's {@link CommandQueue} queues, real
 * gateways (ack wait shortened to {@link #ACK_WAIT}, progress every {@link #PROGRESS}) run them against a played
 * mite stream, and the results come back to the operator. The same timing at 60 s / 15 s is what production runs.
 */
class QueuedCommandsIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  @TempDir
  static Path directory;

  private static final String CLUSTER = GatewaySettings.DEFAULT_CLUSTER_NAME;
  private static final Duration ACK_WAIT = Duration.ofSeconds(2);
  private static final Duration PROGRESS = Duration.ofMillis(500);
  private static final Duration WAIT = Duration.ofSeconds(30);

  private static CertificateAuthority ca;
  private static Gateway gatewayB;
  private static ControlChannel channel;
  private static Connection observer;
  private static TokenIssuer registrations;
  private static final List<AutoCloseable> closing = new ArrayList<>();
  /** The controllers the channel asked the reconciler to look at again (route changes and command results). */
  private static final List<String> lookedAgain = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    ca = CertificateAuthority.createFiles(directory.resolve("ca.pem"), directory.resolve("ca-key.pem"));
    gatewayB = Gateway.start(settings("gw-b"));
    channel = new ControlChannel(NATS.server().connect(), CLUSTER, "127.0.0.1:" + gatewayB.port(), ca.certificatePem(),
        JenkinsTokenIssuer.generate(), Clock.systemUTC());
    channel.serve(controller -> true, lookedAgain::add);
    observer = NATS.server().connect();
    registrations = new TokenIssuer(NATS.server().connect());
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable closeable : closing) {
      closeable.close();
    }
    for (AutoCloseable closeable : new AutoCloseable[] {channel, gatewayB, observer}) {
      if (closeable != null) {
        closeable.close();
      }
    }
  }

  private static GatewaySettings settings(String id) {
    return GatewaySettings.of(id, NATS.server().url(), directory.resolve("ca.pem"), directory.resolve("ca-key.pem"))
        .withListen("127.0.0.1", 0)
        .withTlsNames(List.of("localhost"), List.of("127.0.0.1"))
        .withQueuedCommandTiming(ACK_WAIT, PROGRESS);
  }

  @Test
  void aBackupsQuietDownSlowerThanTheAckWaitRunsOnceAndItsResultReachesTheOperator() throws Exception {
    TestMite mite = enroll(gatewayB);
    Subscription activity = observer.subscribe(BusNames.activity(CLUSTER, mite.identity().namespace(),
        mite.identity().name()));
    observer.flush(Duration.ofSeconds(5));
    try (MiteStream stream = mite.connect(gatewayB, ca)) {
      stream.answerCommandsWith(MiteStream.succeedAfter(ACK_WAIT.multipliedBy(3)));
      stream.hello();
      await().atMost(WAIT).until(() -> channel.routes().live(mite.identity()).isPresent());
      lookedAgain.clear();

      // what a backup calls before its snapshot
      new ChannelQuietDown(channel, Clock.systemUTC()).start(mite.identity());

      ActivityEvent finished = nextActivity(activity, CommandQueue.COMMAND_FINISHED);
      assertThat(finished.getActor()).isEqualTo("operator");
      assertThat(finished.getAttributesMap()).containsEntry("outcome", "SUCCEEDED")
          .containsEntry("what", "one_shot QUIET_DOWN");
      assertThat(stream.commands()).singleElement()
          .satisfies(command -> assertThat(command.getOneShot().getAction()).isEqualTo(OneShot.Action.QUIET_DOWN))
          .satisfies(command -> assertThat(command.getCommandId()).isEqualTo(finished.getAttributesOrThrow("command")));
      // twice the ack wait more: a redelivery would have reached the mite by now
      await().during(ACK_WAIT.multipliedBy(2)).atMost(ACK_WAIT.multipliedBy(3))
          .until(() -> stream.commands().size() == 1);
      assertThat(channel.queue().lastFinished(mite.identity())).get()
          .satisfies(last -> assertThat(last.published().getResult().getCommandId()).isEqualTo(stream.commands().get(0)
              .getCommandId()));
      // the Controller's next pass puts it in status (QueuedCommandFailed, ControllerStatusAggregatorTest)
      assertThat(channel.queue().lastFinished(mite.identity())).get()
          .satisfies(last -> assertThat(last.what()).isEqualTo("one_shot QUIET_DOWN"))
          .satisfies(last -> assertThat(last.succeeded()).isTrue());
      assertThat(lookedAgain).as("the reconciler told of the result").contains(mite.identity().routeKey());
    }
  }

  @Test
  void aRunJobQueuedBeforeItsMiteConnectsReachesItAndJenkinsQueueIdComesBack() throws Exception {
    TestMite mite = enroll(gatewayB);
    Command run = Command.newBuilder().setCommandId("pipeline-run-" + UUID.randomUUID())
        .setDeadlineEpochMillis(Instant.now().plusSeconds(60).toEpochMilli())
        .setRunJob(RunJob.newBuilder().setJob("tenant-a_alpha/build")
            .addParameters(Parameter.newBuilder().setName("TARGET").setValue("staging")))
        .build();

    // queued while no stream is up, as for a parked cell
    var result = channel.queue().queue(mite.identity(), run);
    try (MiteStream stream = mite.connect(gatewayB, ca)) {
      stream.answerCommandsWith(command -> CompletableFuture.completedFuture(MiteStream.result(command,
          CommandResult.Outcome.SUCCEEDED).toBuilder().setQueueId(4711).build()));
      stream.hello();

      CommandResult finished = result.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      assertThat(finished.getOutcome()).isEqualTo(CommandResult.Outcome.SUCCEEDED);
      assertThat(finished.getQueueId()).isEqualTo(4711);
      assertThat(stream.commands()).singleElement().satisfies(command -> {
        assertThat(command.getCommandId()).isEqualTo(run.getCommandId());
        assertThat(command.getRunJob()).isEqualTo(run.getRunJob());
      });
      assertThat(channel.queue().lastFinished(mite.identity())).get()
          .satisfies(last -> assertThat(last.what()).isEqualTo("run_job tenant-a_alpha/build"));
    }
  }

  @Test
  void aGatewayKilledMidCommandHandsItToTheNextGatewayWhichRunsItOnce() throws Exception {
    Gateway doomed = Gateway.start(settings("gw-doomed"));
    closing.add(doomed);
    TestMite mite = enroll(doomed);
    Subscription results = observer.subscribe(BusNames.queuedCommandResults(CLUSTER, mite.identity()));
    observer.flush(Duration.ofSeconds(5));
    Command quietDown = oneShot(OneShot.Action.QUIET_DOWN);
    try (MiteStream first = mite.connect(doomed, ca)) {
      first.answerCommandsWith(MiteStream.neverAnswer());
      first.hello();
      await().atMost(WAIT).until(() -> channel.routes().live(mite.identity())
          .filter(route -> route.getGatewayId().equals("gw-doomed")).isPresent());

      var result = channel.queue().queue(mite.identity(), quietDown);
      await().atMost(WAIT).until(() -> first.commands().size() == 1);
      doomed.crash();
      first.closed().get(10, TimeUnit.SECONDS);

      try (MiteStream next = mite.connect(gatewayB, ca)) {
        next.hello();

        assertThat(result.get(WAIT.toSeconds(), TimeUnit.SECONDS).getOutcome())
            .isEqualTo(CommandResult.Outcome.SUCCEEDED);
        assertThat(next.commands()).containsExactly(quietDown);
        await().during(ACK_WAIT.multipliedBy(2)).atMost(ACK_WAIT.multipliedBy(3))
            .until(() -> next.commands().size() == 1);
      }
    }
    // one result only: the first gateway died before its mite finished, so it published none
    Message published = results.nextMessage(WAIT);
    assertThat(QueuedCommandResult.parseFrom(published.getData()).getResult().getCommandId())
        .isEqualTo(quietDown.getCommandId());
    assertThat(results.nextMessage(ACK_WAIT)).isNull();
  }

  @Test
  void undeliveredDesiredStateQueuesATokenGrantThatCarriesNoTokenAndTheMiteGetsOneMintedWhenItConnects()
      throws Exception {
    TestMite mite = enroll(gatewayB);
    String secret = "tenant-secret-" + UUID.randomUUID();
    Command desired = Command.newBuilder().setCommandId("it-" + UUID.randomUUID())
        .setDeadlineEpochMillis(Instant.now().plusSeconds(60).toEpochMilli())
        .setDesiredState(DesiredState.newBuilder().setBundleDigest("sha256:it")
            .addSecretFiles(File.newBuilder().setPath("TENANT_TOKEN").setContent(ByteString.copyFromUtf8(secret)))
            .setJenkinsToken(channel.jenkinsTokens().issue(mite.identity(), Instant.now())))
        .build();

    CommandResult undelivered = channel.send(mite.identity(), desired).get(WAIT.toSeconds(), TimeUnit.SECONDS);

    assertThat(undelivered.getOutcome()).isEqualTo(CommandResult.Outcome.NOT_CONNECTED);
    assertThat(channel.queue().queueJenkinsTokenGrant(mite.identity(), "test: again")).as("a second grant while "
        + "the first waits").isEmpty();
    try (MiteStream stream = mite.connect(gatewayB, ca)) {
      stream.hello();
      GatewayMessage relayed = stream.next(WAIT);
      assertThat(relayed.hasJenkinsToken()).isTrue();
      // sealed to the mite's key (protocol 2): the gateway relayed what it could not read
      assertThat(relayed.getJenkinsToken().getJwt()).isEmpty();
      String jwt = SealedCommands.open(relayed.getJenkinsToken(), List.of(mite.openingKey())).getJwt();
      assertThat(SignedJWT.parse(jwt).getJWTClaimsSet().getAudience()).containsExactly(mite.identity().toString());
      assertThat(jwt).isNotEqualTo(desired.getDesiredState().getJenkinsToken().getJwt());
      CommandResult result = await().atMost(WAIT).until(() -> channel.queue().lastFinished(mite.identity()),
          last -> last.isPresent()).orElseThrow().published().getResult();
      assertThat(result.getOutcome()).isEqualTo(CommandResult.Outcome.SUCCEEDED);
      assertThat(result.getCommandId()).startsWith("jenkins-token-grant-");
      assertThat(result.getMessage()).doesNotContain(jwt);
      assertThat(stream.commands()).as("desired state never came through the queue").isEmpty();
      Path store = NATS.server().storeDirectory();
      // a canary queued for a mite nobody holds shows the scan sees what JetStream wrote
      Command canary = oneShot(OneShot.Action.RELOAD_CONFIGURATION);
      channel.queue().queue(new ControllerIdentity("nobody", "canary", UUID.randomUUID().toString()), canary);
      await().atMost(WAIT).until(() -> StoreScan.finds(store, canary.getCommandId().getBytes(StandardCharsets.UTF_8)));
      assertThat(StoreScan.finds(store, jwt.getBytes(StandardCharsets.US_ASCII))).isFalse();
      assertThat(StoreScan.finds(store, secret.getBytes(StandardCharsets.UTF_8))).isFalse();
      assertThat(StoreScan.finds(store, desired.getDesiredState().getJenkinsToken().getJwt()
          .getBytes(StandardCharsets.US_ASCII))).isFalse();
    }
  }

  @Test
  void anExpiredTokenGrantIsDroppedWithAnActivityEventAndNotDelivered() throws Exception {
    TestMite mite = enroll(gatewayB);
    Subscription activity = observer.subscribe(BusNames.activity(CLUSTER, mite.identity().namespace(),
        mite.identity().name()));
    Subscription results = observer.subscribe(BusNames.queuedCommandResults(CLUSTER, mite.identity()));
    observer.flush(Duration.ofSeconds(5));
    // queued 25 hours ago, as an operator whose mite never came back in time would have
    Clock dayBefore = Clock.offset(Clock.systemUTC(), CommandQueue.TOKEN_GRANT_LIFETIME.plusHours(1).negated());
    try (CommandQueue yesterday = new CommandQueue(channel.connection(), CLUSTER, channel.routes(),
        ActivityPublisher.withoutBus(CLUSTER, "operator"), dayBefore)) {
      yesterday.queueJenkinsTokenGrant(mite.identity(), "test: queued a day ago").orElseThrow();

      try (MiteStream stream = mite.connect(gatewayB, ca)) {
        stream.hello();

        QueuedCommandResult result = QueuedCommandResult.parseFrom(results.nextMessage(WAIT).getData());
        assertThat(result.getResult().getOutcome()).isEqualTo(CommandResult.Outcome.DEADLINE_EXCEEDED);
        assertThat(result.getResult().getMessage()).contains("dropped, not delivered");
        ActivityEvent dropped = nextActivity(activity, "jenkins_token.grant_expired");
        assertThat(dropped.getActor()).isEqualTo("gateway/gw-b");
        assertThat(dropped.getAttributesMap()).containsEntry("command", result.getResult().getCommandId())
            .containsEntry("reason", "test: queued a day ago");
        assertThat(stream.nothingReceived()).as("no Jenkins token relayed").isTrue();
      }
    }
  }

  private static TestMite enroll(Gateway gateway) throws Exception {
    ControllerIdentity controller = new ControllerIdentity("team-" + UUID.randomUUID().toString().substring(0, 8),
        "jenkins", UUID.randomUUID().toString());
    return TestMite.enroll(gateway, ca, registrations, controller);
  }

  private static Command oneShot(OneShot.Action action) {
    return Command.newBuilder()
        .setCommandId("it-" + UUID.randomUUID())
        .setDeadlineEpochMillis(Instant.now().plusSeconds(60).toEpochMilli())
        .setOneShot(OneShot.newBuilder().setAction(action))
        .build();
  }

  private static ActivityEvent nextActivity(Subscription activity, String kind) throws Exception {
    Instant giveUp = Instant.now().plus(WAIT);
    while (Instant.now().isBefore(giveUp)) {
      // never zero: nextMessage(0) waits for ever
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
}
