package dev.varroa.plugin.loopback;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.plugin.config.PluginSettings;
import dev.varroa.plugin.testing.MiteLoopbackStandIn;
import dev.varroa.plugin.testing.SteppedClock;
import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.ClaimDecision;
import dev.varroa.protocol.builds.v1.ClaimRequest;
import dev.varroa.protocol.builds.v1.RunQueued;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoopbackClientIT {

  @TempDir
  Path dir;

  private final SteppedClock clock = new SteppedClock(Instant.parse("2026-12-01T10:00:00Z"));
  private Path tokenFile;
  private MiteLoopbackStandIn mite;

  @BeforeEach
  void startMite() throws IOException {
    tokenFile = dir.resolve("loopback-token");
    mite = MiteLoopbackStandIn.start(tokenFile, "first-token");
  }

  @AfterEach
  void stopMite() {
    mite.close();
  }

  private PluginSettings settings(URI url, String... overrides) {
    Map<String, String> env = new HashMap<>();
    env.put("VARROA_LOOPBACK_URL", url.toString());
    env.put("VARROA_LOOPBACK_TOKEN_FILE", tokenFile.toString());
    for (int i = 0; i < overrides.length; i += 2) {
      env.put(overrides[i], overrides[i + 1]);
    }
    return PluginSettings.fromEnvironment(env);
  }

  private static ClaimRequest request() {
    return ClaimRequest.newBuilder().setRunId("run-1").setJob("team/app").setQueueId(42).build();
  }

  @Test
  void postsEventsAndReadsTheAcknowledgedKeys() {
    LoopbackToken token = new LoopbackToken(tokenFile, clock);
    try (LoopbackClient client = new LoopbackClient(settings(mite.url()), token)) {
      mite.acknowledgeOnly(event -> event.getSequence() == 1);
      BuildEvent first = event(1);
      BuildEvent second = event(2);

      EventsOutcome outcome = client.sendEvents(List.of(first, second));

      assertThat(outcome).isInstanceOf(EventsOutcome.Acknowledged.class);
      EventsOutcome.Acknowledged ack = (EventsOutcome.Acknowledged) outcome;
      assertThat(ack.keys()).extracting(key -> key.getSequence()).containsExactly(1L);
      assertThat(ack.retained()).isEqualTo(1);
      assertThat(mite.received()).containsExactly(first, second);
    }
  }

  @Test
  void aFullMiteIsBusyWithItsRetryAfter() {
    try (LoopbackClient client = new LoopbackClient(settings(mite.url()), new LoopbackToken(tokenFile, clock))) {
      mite.answerBusy(1);

      assertThat(client.sendEvents(List.of(event(1))))
          .isEqualTo(new EventsOutcome.Busy(Duration.ofSeconds(1), "the mite's event retention is full: {\"error\":\"event retention is full\"}"));
    }
  }

  @Test
  void readsTheClaimDecisionTheMiteAnswers() {
    try (LoopbackClient client = new LoopbackClient(settings(mite.url()), new LoopbackToken(tokenFile, clock))) {
      mite.answerClaims(request -> MiteLoopbackStandIn.Answer.granted(17));

      ClaimDecision decision = client.claim(request());

      assertThat(decision.getDecision()).isEqualTo("granted");
      assertThat(decision.getCode()).isEqualTo("OK");
      assertThat(decision.getBuildNumber()).isEqualTo(17);
      assertThat(mite.claims()).containsExactly(request());
    }
  }

  @Test
  void passesTheMitesOwnUnavailableAnswerThrough() {
    try (LoopbackClient client = new LoopbackClient(settings(mite.url()), new LoopbackToken(tokenFile, clock))) {
      mite.answerClaims(request -> new MiteLoopbackStandIn.Answer(504, ClaimDecision.newBuilder()
          .setCode("UNAVAILABLE").setReason("no claim answer within 4.5 s").build()));

      ClaimDecision decision = client.claim(request());

      assertThat(decision.getDecision()).isEmpty();
      assertThat(decision.getCode()).isEqualTo("UNAVAILABLE");
      assertThat(decision.getReason()).isEqualTo("no claim answer within 4.5 s");
    }
  }

  @Test
  void aRestartedMitesNewTokenIsPickedUpAfterOne401() throws IOException {
    LoopbackToken token = new LoopbackToken(tokenFile, clock);
    try (LoopbackClient client = new LoopbackClient(settings(mite.url()), token)) {
      mite.answerClaims(request -> MiteLoopbackStandIn.Answer.granted(1));
      assertThat(client.claim(request()).getDecision()).isEqualTo("granted");
      assertThat(token.reads()).isEqualTo(1);

      mite.rotateToken(tokenFile, "second-token");
      ClaimDecision afterRestart = client.claim(request());

      assertThat(afterRestart.getDecision()).isEqualTo("granted");
      assertThat(mite.unauthorizedAnswers()).isEqualTo(1);
      assertThat(token.reads()).isEqualTo(2);
    }
  }

  @Test
  void a401StormReReadsTheTokenOnceASecond() {
    LoopbackToken token = new LoopbackToken(tokenFile, clock);
    try (LoopbackClient client = new LoopbackClient(settings(mite.url()), token)) {
      mite.enforceToken("a-token-the-file-does-not-hold");

      for (int i = 0; i < 20; i++) {
        ClaimDecision decision = client.claim(request());
        assertThat(decision.getCode()).isEqualTo("UNAVAILABLE");
        assertThat(decision.getReason()).contains("401", tokenFile.toString());
      }
      for (int i = 0; i < 5; i++) {
        assertThat(client.sendEvents(List.of(event(1)))).isInstanceOf(EventsOutcome.Failed.class);
      }
      // One read to start, one re-read after the first 401: the clock has not moved, so no more.
      assertThat(token.reads()).isEqualTo(2);

      clock.advance(Duration.ofMillis(999));
      client.claim(request());
      assertThat(token.reads()).isEqualTo(2);
      clock.advance(Duration.ofMillis(1));
      client.claim(request());
      assertThat(token.reads()).isEqualTo(3);
    }
  }

  @Test
  void aClosedPortGivesAnEmptyDecisionWithUnavailable() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    try (LoopbackClient client = new LoopbackClient(settings(URI.create("http://127.0.0.1:" + closedPort)),
        new LoopbackToken(tokenFile, clock))) {

      ClaimDecision decision = client.claim(request());

      assertThat(decision.getDecision()).isEmpty();
      assertThat(decision.getCode()).isEqualTo("UNAVAILABLE");
      assertThat(decision.getReason()).contains("127.0.0.1:" + closedPort);
      assertThat(client.sendEvents(List.of(event(1)))).isInstanceOf(EventsOutcome.Failed.class);
    }
  }

  @Test
  void aMiteThatAcceptsButNeverAnswersRunsOutTheReadBudget() throws IOException {
    // The kernel completes the handshake into the backlog; nobody ever reads or answers.
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        LoopbackClient client = new LoopbackClient(
            settings(URI.create("http://127.0.0.1:" + silent.getLocalPort()), "VARROA_CLAIM_READ_TIMEOUT", "0.3"),
            new LoopbackToken(tokenFile, clock))) {

      ClaimDecision decision = client.claim(request());

      assertThat(decision.getDecision()).isEmpty();
      assertThat(decision.getCode()).isEqualTo("UNAVAILABLE");
      assertThat(decision.getReason()).contains("within 0.3 s", "VARROA_CLAIM_READ_TIMEOUT");
    }
  }

  @Test
  void aConnectThatNeverCompletesRunsOutTheConnectBudget() throws IOException {
    // A full backlog: with the one slot taken and nobody accepting, a further connect is never completed.
    try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      java.util.List<java.net.Socket> fillers = new java.util.ArrayList<>();
      try {
        for (int i = 0; i < 4; i++) {
          java.net.Socket filler = new java.net.Socket();
          try {
            filler.connect(full.getLocalSocketAddress(), 200);
            fillers.add(filler);
          } catch (IOException e) {
            filler.close();
            break;
          }
        }
        try (LoopbackClient client = new LoopbackClient(
            settings(URI.create("http://127.0.0.1:" + full.getLocalPort()), "VARROA_CLAIM_CONNECT_TIMEOUT", "0.3",
                "VARROA_CLAIM_READ_TIMEOUT", "0.6"),
            new LoopbackToken(tokenFile, clock))) {

          ClaimDecision decision = client.claim(request());

          assertThat(decision.getDecision()).isEmpty();
          assertThat(decision.getCode()).isEqualTo("UNAVAILABLE");
          assertThat(decision.getReason()).contains("within 0.3 s", "VARROA_CLAIM_CONNECT_TIMEOUT");
        }
      } finally {
        for (java.net.Socket filler : fillers) {
          filler.close();
        }
      }
    }
  }

  private static BuildEvent event(long sequence) {
    return BuildEvent.newBuilder().setRunId("run-1").setSequence(sequence).setJob("team/app")
        .setRunQueued(RunQueued.newBuilder().setQueueId(3).setCause("timer")).build();
  }
}
