package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.util.JsonFormat;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.ClaimDecision;
import dev.varroa.protocol.builds.v1.ClaimRequest;
import dev.varroa.protocol.builds.v1.EventBatch;
import dev.varroa.protocol.builds.v1.EventBatchAck;
import dev.varroa.protocol.builds.v1.EventKey;
import dev.varroa.protocol.builds.v1.JobSchedule;
import dev.varroa.protocol.builds.v1.JobScheduleInventory;
import dev.varroa.protocol.builds.v1.RunStarted;
import dev.varroa.protocol.mite.v1.ClaimAnswer;
import dev.varroa.protocol.mite.v1.ClaimAsk;
import dev.varroa.protocol.mite.v1.GatewayMessage;
import dev.varroa.protocol.mite.v1.MiteMessage;
import dev.varroa.testfixtures.jenkins.Caller;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;
import dev.varroa.testfixtures.process.LoopbackPort;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mite's build data plane end to end over real HTTP and a real mutual-TLS gRPC stream: the plugin's calls
 * on the loopback listener, and a {@link PlayedGateway} that acknowledges and answers only when the test says.
 */
class BuildDataPlaneIT {

  private static final ControllerIdentity CONTROLLER = new ControllerIdentity("team-a", "ci", "uid-1");
  private static final Duration SHORT_CLAIM_WAIT = Duration.ofMillis(500);
  private static final Duration POLL = Duration.ofMillis(200);
  private static final JsonFormat.Printer JSON = JsonFormat.printer().omittingInsignificantWhitespace();

  @TempDir
  Path dir;

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final List<AutoCloseable> running = new ArrayList<>();
  private PlayedGateway gateway;
  private JenkinsFixture jenkins;
  private OperatorTokens tokens;
  private Mite mite;
  private GatewayEndpoint endpoint;

  @BeforeEach
  void setUp() throws Exception {
    jenkins = JenkinsFixture.start();
    tokens = OperatorTokens.forController(CONTROLLER, dir);
    jenkins.bearerTokenAccepted(tokens.accepted());
    gateway = new PlayedGateway(dir);
    gateway.storeIdentity(CONTROLLER, dir.resolve("identity"));
    gateway.jenkinsToken(tokens.mint());
    endpoint = gateway.endpoint();
  }

  @AfterEach
  void tearDown() throws Exception {
    for (int i = running.size() - 1; i >= 0; i--) {
      running.get(i).close();
    }
    gateway.close();
    jenkins.close();
  }

  // ---- the listener itself ----

  @Test
  void writesTheTokenBeforeTheListenerAcceptsSoARacingRequestHealsAtOnce() throws Exception {
    Path tokenFile = dir.resolve("loopback/" + LoopbackToken.FILE_NAME);
    Files.createDirectories(tokenFile.getParent());
    // the previous mite's token: what a plugin holds in its cache when this mite starts
    Files.writeString(tokenFile, "token-of-the-previous-mite");
    int port = LoopbackPort.pickFree();
    List<Integer> statuses = new CopyOnWriteArrayList<>();
    CompletableFuture<String> tokenAtFirstAccept = new CompletableFuture<>();
    Thread plugin = new Thread(() -> racingPlugin(port, tokenFile, tokenAtFirstAccept, statuses), "racing-plugin");
    plugin.setDaemon(true);
    plugin.start();

    mite = mite(port, MiteSettings.DEFAULT_EVENT_RETAIN_BYTES, SHORT_CLAIM_WAIT);

    String written = Files.readString(tokenFile);
    assertThat(tokenAtFirstAccept.get(20, TimeUnit.SECONDS)).isEqualTo(written).isNotEqualTo("token-of-the-previous-mite");
    await().atMost(Duration.ofSeconds(20)).until(() -> !statuses.isEmpty() && statuses.get(statuses.size() - 1) == 200);
    // at most the stale cached token's one 401, and never a 401 after the re-read
    assertThat(Collections.frequency(statuses, 401)).isLessThanOrEqualTo(1);
    assertThat(statuses.get(statuses.size() - 1)).isEqualTo(200);
    plugin.join(TimeUnit.SECONDS.toMillis(10));
  }

  // what the plugin does against a starting mite: connect until it can, re-read the token after a 401
  private void racingPlugin(int port, Path tokenFile, CompletableFuture<String> tokenAtFirstAccept,
      List<Integer> statuses) {
    try {
      String cached = Files.readString(tokenFile);
      while (!tokenAtFirstAccept.isDone()) {
        try (Socket socket = new Socket()) {
          socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
          tokenAtFirstAccept.complete(Files.readString(tokenFile));
        } catch (ConnectException notYet) {
          LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
      }
      for (int attempt = 0; attempt < 3; attempt++) {
        int status = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/events"))
            .header("Authorization", "Bearer " + cached)
            .POST(HttpRequest.BodyPublishers.ofString("{\"events\":[]}")).build(),
            HttpResponse.BodyHandlers.discarding()).statusCode();
        statuses.add(status);
        if (status != 401) {
          return;
        }
        cached = Files.readString(tokenFile);
      }
    } catch (IOException e) {
      tokenAtFirstAccept.completeExceptionally(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void cannotBeReachedOffLoopbackSoNoOtherAddressCanDrain() throws Exception {
    mite = mite(0, MiteSettings.DEFAULT_EVENT_RETAIN_BYTES, SHORT_CLAIM_WAIT);
    int port = mite.loopbackPort();
    List<InetAddress> elsewhere = new ArrayList<>();
    // another loopback address is another address too: the listener is bound to 127.0.0.1 alone
    elsewhere.add(InetAddress.getByName("127.0.0.2"));
    for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      if (nic.isUp() && !nic.isLoopback()) {
        Collections.list(nic.getInetAddresses()).stream().filter(a -> a instanceof Inet4Address).forEach(elsewhere::add);
      }
    }

    for (InetAddress address : elsewhere) {
      assertThatThrownBy(() -> {
        try (Socket socket = new Socket()) {
          socket.connect(new InetSocketAddress(address, port), 2000);
        }
      }).as("connect to %s:%d", address.getHostAddress(), port).isInstanceOf(ConnectException.class);
      String url = "http://" + address.getHostAddress() + ":" + port + "/drain";
      assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(URI.create(url))
          .header("Authorization", "Bearer " + loopbackToken()).POST(HttpRequest.BodyPublishers.noBody()).build(),
          HttpResponse.BodyHandlers.ofString())).as(url).isInstanceOf(ConnectException.class);
    }
    // the health port, which the kubelet reaches from outside, has no drain any more
    HttpResponse<String> oldDrain = http.send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + mite.healthPort() + "/drain")).POST(HttpRequest.BodyPublishers.noBody())
        .build(), HttpResponse.BodyHandlers.ofString());
    assertThat(oldDrain.statusCode()).isEqualTo(404);
    assertThat(jenkins.quietingDown()).isFalse();
    assertThat(jenkins.requests()).noneMatch(r -> r.path().equals("/quietDown"));
  }

  // ---- events ----

  @Test
  void stopsReadingAtTheRetentionCapAndResumesOnceAcksFreeRoom() throws Exception {
    List<BuildEvent> first = events("run-a", 1, 5);
    long cap = first.stream().mapToLong(EventRetention::heldBytes).sum();
    mite = connectedMite(cap, SHORT_CLAIM_WAIT);

    EventBatchAck held = postEvents(first);
    assertThat(held.getAcknowledgedList()).isEmpty();
    assertThat(held.getRetained()).isEqualTo(5);
    assertThat(mite.retainedEventBytes()).isEqualTo(cap);
    assertThat(gateway.events()).isEqualTo(first);

    List<BuildEvent> second = events("run-b", 1, 3);
    CompletableFuture<HttpResponse<String>> blocked = postEventsAsync(second);
    // at the cap nothing of the second batch is read, retained or forwarded while no ack comes
    await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> !blocked.isDone()
        && gateway.events().size() == 5 && mite.retainedEventBytes() == cap);

    gateway.autoAck(true);
    gateway.acknowledge(keys(first));

    HttpResponse<String> answer = blocked.get(10, TimeUnit.SECONDS);
    assertThat(answer.statusCode()).isEqualTo(200);
    EventBatchAck ack = ack(answer.body());
    assertThat(ack.getAcknowledgedList()).isEqualTo(keys(second));
    assertThat(ack.getRetained()).isZero();
    assertThat(gateway.events()).hasSize(8).endsWith(second.toArray(BuildEvent[]::new));
    await().atMost(Duration.ofSeconds(5)).until(() -> mite.retainedEvents() == 0);
  }

  @Test
  void answers503WithRetryAfterWhenNoRoomFreesUp() throws Exception {
    List<BuildEvent> first = events("run-a", 1, 2);
    mite = connectedMite(first.stream().mapToLong(EventRetention::heldBytes).sum(), SHORT_CLAIM_WAIT);
    postEvents(first);

    HttpResponse<String> refused = postEventsAsync(events("run-b", 1, 1)).get(20, TimeUnit.SECONDS);

    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(refused.headers().firstValue("Retry-After")).contains("1");
    assertThat(refused.body()).startsWith("{\"error\":\"").contains("VARROA_EVENT_RETAIN_BYTES");
    assertThat(gateway.events()).isEqualTo(first);
  }

  @Test
  void replaysRetainedEventsInOrderAfterAReconnectBeforeNewOnes() throws Exception {
    mite = connectedMite(MiteSettings.DEFAULT_EVENT_RETAIN_BYTES, SHORT_CLAIM_WAIT);
    List<BuildEvent> early = events("run-a", 1, 3);
    assertThat(postEvents(early).getRetained()).isEqualTo(3);
    assertThat(gateway.events()).isEqualTo(early);

    gateway.clearReceived();
    gateway.breakStream();
    gateway.autoAck(true);
    // posted while the mite is away or reconnecting: these wait behind the replay
    List<BuildEvent> late = events("run-a", 4, 2);
    CompletableFuture<HttpResponse<String>> latePost = postEventsAsync(late);

    await().atMost(Duration.ofSeconds(20)).until(() -> gateway.welcomes() == 2);
    List<BuildEvent> expected = new ArrayList<>(early);
    expected.addAll(late);
    await().atMost(Duration.ofSeconds(10)).until(() -> gateway.events().size() >= 5);
    assertThat(gateway.events()).isEqualTo(expected);
    assertThat(latePost.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    await().atMost(Duration.ofSeconds(5)).until(() -> mite.retainedEvents() == 0);
  }

  @Test
  void retainsAndForwardsADuplicateEventOnce() throws Exception {
    mite = connectedMite(MiteSettings.DEFAULT_EVENT_RETAIN_BYTES, SHORT_CLAIM_WAIT);
    BuildEvent one = events("run-a", 1, 1).get(0);
    BuildEvent two = events("run-a", 2, 1).get(0);
    BuildEvent three = events("run-a", 3, 1).get(0);

    assertThat(postEvents(List.of(one, two, one)).getRetained()).isEqualTo(2);
    EventBatchAck again = postEvents(List.of(two, three));

    assertThat(again.getRetained()).isEqualTo(2);
    assertThat(mite.retainedEvents()).isEqualTo(3);
    assertThat(gateway.events()).containsExactly(one, two, three);
    gateway.acknowledge(keys(List.of(one, two, three)));
    await().atMost(Duration.ofSeconds(5)).until(() -> mite.retainedEvents() == 0);
    assertThat(mite.retainedEventBytes()).isZero();
  }

  @Test
  void listsTheEventsTheGatewayAcknowledgedInTime() throws Exception {
    mite = connectedMite(MiteSettings.DEFAULT_EVENT_RETAIN_BYTES, SHORT_CLAIM_WAIT);
    gateway.autoAck(true);
    List<BuildEvent> batch = events("run-a", 1, 700);

    EventBatchAck ack = postEvents(batch);

    assertThat(ack.getAcknowledgedList()).isEqualTo(keys(batch));
    assertThat(ack.getRetained()).isZero();
    // at most 500 events per MiteMessage.events
    assertThat(gateway.eventMessages()).extracting(m -> m.getEvents().getEventsCount()).containsExactly(500, 200);
  }

  // ---- claims ----

  @Test
  void relaysAClaimAndPrintsEveryFieldOfTheDecision() throws Exception {
    mite = connectedMite(MiteSettings.DEFAULT_EVENT_RETAIN_BYTES, SHORT_CLAIM_WAIT);
    gateway.answerClaims(ask -> Optional.of(ClaimAnswer.newBuilder().setRequestId(ask.getRequestId())
        .setDecision(ClaimDecision.newBuilder().setDecision("granted").setCode("OK").setBuildNumber(7)).build()));
    ClaimRequest claim = ClaimRequest.newBuilder().setRunId("run-a").setJob("team/app").setQueueId(42).build();

    HttpResponse<String> answer = postClaim(claim);

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body().strip()).isEqualTo(
        "{\"decision\":\"granted\",\"code\":\"OK\",\"buildNumber\":\"7\",\"reason\":\"\",\"retryAfterMillis\":\"0\"}");
    ClaimAsk asked = gateway.received().stream().filter(MiteMessage::hasClaim).findFirst().orElseThrow().getClaim();
    assertThat(asked.getRequestId()).isNotEmpty();
    assertThat(asked.getClaim()).isEqualTo(claim);
  }

  @Test
  void answers504WithAnEmptyDecisionAfterTheReplyWaitAndDropsTheLateAnswer() throws Exception {
    mite = connectedMite(MiteSettings.DEFAULT_EVENT_RETAIN_BYTES, SHORT_CLAIM_WAIT);
    ClaimRequest claim = ClaimRequest.newBuilder().setRunId("run-a").setJob("team/app").build();

    HttpResponse<String> expired = postClaim(claim);

    assertThat(expired.statusCode()).isEqualTo(504);
    ClaimDecision empty = decision(expired.body());
    assertThat(empty.getDecision()).isEmpty();
    assertThat(empty.getCode()).isEqualTo("UNAVAILABLE");
    assertThat(empty.getReason()).contains("VARROA_CLAIM_REPLY_WAIT");
    // the answer that comes too late goes nowhere; the next claim gets its own
    String lateId = gateway.received().stream().filter(MiteMessage::hasClaim).findFirst().orElseThrow()
        .getClaim().getRequestId();
    gateway.send(GatewayMessage.newBuilder().setClaimAnswer(ClaimAnswer.newBuilder().setRequestId(lateId)
        .setDecision(ClaimDecision.newBuilder().setDecision("granted").setCode("OK").setBuildNumber(1))).build());
    gateway.answerClaims(ask -> Optional.of(ClaimAnswer.newBuilder().setRequestId(ask.getRequestId())
        .setDecision(ClaimDecision.newBuilder().setDecision("refused").setCode("OK").setReason("held")).build()));
    ClaimDecision next = decision(postClaim(claim).body());
    assertThat(next.getDecision()).isEqualTo("refused");
    assertThat(next.getReason()).isEqualTo("held");
  }

  @Test
  void answers503AtOnceWhenNotConnected() throws Exception {
    // nothing listens where the mite looks for its gateway
    gateway.close();
    mite = mite(0, MiteSettings.DEFAULT_EVENT_RETAIN_BYTES, MiteSettings.DEFAULT_CLAIM_REPLY_WAIT);

    HttpResponse<String> answer = postClaim(ClaimRequest.newBuilder().setRunId("run-a").setJob("team/app").build());

    assertThat(answer.statusCode()).isEqualTo(503);
    assertThat(answer.body()).contains("\"decision\":\"\"", "\"code\":\"UNAVAILABLE\"", "not connected");
  }

  // ---- schedules ----

  @Test
  void forwardsTheScheduleInventoryWhenItChanges() throws Exception {
    JobScheduleInventory nightly = JobScheduleInventory.newBuilder().setObservedAtEpochMillis(1)
        .addJobs(JobSchedule.newBuilder().setJob("team/app").addTimerSpecs("H 2 * * *")).build();
    jenkins.jobScheduleInventory(JSON.print(nightly));

    mite = connectedMite(MiteSettings.DEFAULT_EVENT_RETAIN_BYTES, SHORT_CLAIM_WAIT);

    await().atMost(Duration.ofSeconds(20)).until(() -> schedulesSent().size() == 1);
    assertThat(schedulesSent().get(0)).isEqualTo(nightly);
    // read with the Jenkins token the mite holds (a poll racing the token's arrival goes in anonymous: 403)
    assertThat(jenkins.requests()).filteredOn(r -> r.path().equals("/varroa/schedules") && r.status() == 200)
        .isNotEmpty().allMatch(r -> r.caller() == Caller.VERIFIED_BEARER);
    // unchanged but for the observation time: polled again, not forwarded again
    jenkins.jobScheduleInventory(JSON.print(nightly.toBuilder().setObservedAtEpochMillis(2).build()));
    long polled = pollsSoFar();
    await().atMost(Duration.ofSeconds(10)).until(() -> pollsSoFar() >= polled + 3);
    assertThat(schedulesSent()).hasSize(1);

    JobScheduleInventory hourly = nightly.toBuilder().setObservedAtEpochMillis(3)
        .addJobs(JobSchedule.newBuilder().setJob("team/lib").addTimerSpecs("H * * * *")).build();
    jenkins.jobScheduleInventory(JSON.print(hourly));
    await().atMost(Duration.ofSeconds(10)).until(() -> schedulesSent().size() == 2);
    assertThat(schedulesSent().get(1)).isEqualTo(hourly);
  }

  @Test
  void skipsAPluginWithoutSchedules() throws Exception {
    mite = connectedMite(MiteSettings.DEFAULT_EVENT_RETAIN_BYTES, SHORT_CLAIM_WAIT);

    await().atMost(Duration.ofSeconds(10)).until(() -> jenkins.requests().stream()
        .filter(r -> r.path().equals("/varroa/schedules") && r.status() == 404).count() >= 3);
    assertThat(schedulesSent()).isEmpty();
    assertThat(mite.connected()).isTrue();
  }

  // ---- the world around the mite ----

  private Mite connectedMite(long retainBytes, Duration claimWait) throws Exception {
    Mite started = mite(0, retainBytes, claimWait);
    await().atMost(Duration.ofSeconds(20)).until(started::connected);
    return started;
  }

  private Mite mite(int loopbackPort, long retainBytes, Duration claimWait) throws Exception {
    MiteSettings settings = new MiteSettings(CONTROLLER, "ci-0", List.of(endpoint),
        dir.resolve("bootstrap/token"), gateway.caFile(), dir.resolve("identity"), jenkins.url(), dir.resolve("casc"),
        dir.resolve("casc-rendered"), dir.resolve("secrets"), dir.resolve("loopback"), Duration.ofSeconds(60),
        Duration.ofMinutes(10), 0, loopbackPort, retainBytes, claimWait, POLL);
    Mite started = Mite.start(settings);
    running.add(started);
    return started;
  }

  private String loopbackToken() throws IOException {
    return Files.readString(dir.resolve("loopback/" + LoopbackToken.FILE_NAME));
  }

  private static List<BuildEvent> events(String runId, int firstSequence, int count) {
    return IntStream.range(firstSequence, firstSequence + count).mapToObj(seq -> BuildEvent.newBuilder()
        .setRunId(runId).setSequence(seq).setJob("team/app").setEmittedAtEpochMillis(1_700_000_000_000L)
        .setRunStarted(RunStarted.newBuilder().setBuildNumber(9).setNode("built-in")).build()).toList();
  }

  private static List<EventKey> keys(List<BuildEvent> events) {
    return events.stream().map(EventRetention::key).toList();
  }

  private CompletableFuture<HttpResponse<String>> postEventsAsync(List<BuildEvent> events) throws Exception {
    return http.sendAsync(loopback("/v1/events")
        .POST(HttpRequest.BodyPublishers.ofString(JSON.print(EventBatch.newBuilder().addAllEvents(events)))).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private EventBatchAck postEvents(List<BuildEvent> events) throws Exception {
    HttpResponse<String> answer = postEventsAsync(events).get(20, TimeUnit.SECONDS);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return ack(answer.body());
  }

  private HttpResponse<String> postClaim(ClaimRequest claim) throws Exception {
    return http.send(loopback("/v1/claim").POST(HttpRequest.BodyPublishers.ofString(JSON.print(claim))).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest.Builder loopback(String path) throws IOException {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + mite.loopbackPort() + path))
        .header("Authorization", "Bearer " + loopbackToken());
  }

  private static EventBatchAck ack(String json) throws Exception {
    EventBatchAck.Builder ack = EventBatchAck.newBuilder();
    JsonFormat.parser().merge(json, ack);
    return ack.build();
  }

  private static ClaimDecision decision(String json) throws Exception {
    ClaimDecision.Builder decision = ClaimDecision.newBuilder();
    JsonFormat.parser().merge(json, decision);
    return decision.build();
  }

  private List<JobScheduleInventory> schedulesSent() {
    return gateway.received().stream().filter(MiteMessage::hasSchedules).map(MiteMessage::getSchedules).toList();
  }

  private long pollsSoFar() {
    return jenkins.requests().stream().filter(r -> r.path().equals("/varroa/schedules")).count();
  }
}
