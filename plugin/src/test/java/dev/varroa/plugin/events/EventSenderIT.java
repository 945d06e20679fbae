package dev.varroa.plugin.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.plugin.config.PluginSettings;
import dev.varroa.plugin.loopback.LoopbackClient;
import dev.varroa.plugin.loopback.LoopbackToken;
import dev.varroa.plugin.testing.MiteLoopbackStandIn;
import dev.varroa.protocol.builds.v1.BuildEvent;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spool, sender and loopback client together, against a listener that plays the mite (DATAPLANE.md). */
class EventSenderIT {

  private static final Duration QUICK = Duration.ofMillis(20);

  @TempDir
  Path home;

  private Path tokenFile;
  private MiteLoopbackStandIn mite;
  private final List<AutoCloseable> open = new ArrayList<>();

  @BeforeEach
  void startMite() throws Exception {
    tokenFile = home.resolve("loopback-token");
    mite = MiteLoopbackStandIn.start(tokenFile, "token");
  }

  @AfterEach
  void stopAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
    mite.close();
  }

  /** One "Jenkins": spool, client and a started sender, closed in reverse order. */
  private EventSpool jenkins() throws Exception {
    EventSpool spool = EventSpool.open(EventSpool.directoryOf(home), 64L << 20, Clock.systemUTC());
    LoopbackClient client = new LoopbackClient(PluginSettings.fromEnvironment(Map.of(
        "VARROA_LOOPBACK_TOKEN_FILE", tokenFile.toString())).withLoopbackUrl(mite.url()),
        new LoopbackToken(tokenFile, Clock.systemUTC()));
    EventSender sender = new EventSender(spool, client::sendEvents, QUICK, Duration.ofMillis(200)).start();
    open.add(spool);
    open.add(client);
    open.add(sender);
    return spool;
  }

  /** Jenkins stops: sender, client and spool close; the spool's files stay. */
  private void stopJenkins() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.remove(i).close();
    }
  }

  @Test
  void aRestartedJenkinsResendsTheUnacknowledgedEventsInOrderAndContinuesTheNumbers() throws Exception {
    mite.acknowledgeOnly(event -> false);
    EventSpool spool = jenkins();
    BuildEventEmitter emitter = new BuildEventEmitter(spool, Clock.systemUTC());
    emitter.runQueued("run-a", "team/app", 1, "timer");
    emitter.runStarted("run-a", "team/app", 9, "built-in", 5, "timer");
    emitter.runQueued("run-b", "team/lib", 2, "user");
    await().atMost(Duration.ofSeconds(10)).until(() -> mite.received().size() >= 3);
    stopJenkins();

    mite.acknowledgeOnly(event -> true);
    EventSpool restarted = jenkins();
    new BuildEventEmitter(restarted, Clock.systemUTC()).runCompleted("run-a", "team/app", 9, "SUCCESS", 1000);

    await().atMost(Duration.ofSeconds(10)).until(() -> restarted.status().pendingEvents() == 0);
    List<String> firstArrivals = new ArrayList<>(keysInFirstArrivalOrder(mite.received()));
    assertThat(firstArrivals).containsExactly("run-a/1", "run-a/2", "run-b/1", "run-a/3");
    // What went after the restart went in spool order too.
    List<BuildEvent> received = mite.received();
    List<String> lastRound = received.subList(received.size() - 4, received.size()).stream().map(EventSenderIT::key).toList();
    assertThat(lastRound).containsExactly("run-a/1", "run-a/2", "run-b/1", "run-a/3");
  }

  @Test
  void aBusyMiteIsAskedAgainAfterItsRetryAfterAndGetsEverything() throws Exception {
    mite.answerBusy(2);
    EventSpool spool = jenkins();
    new BuildEventEmitter(spool, Clock.systemUTC()).runQueued("run-a", "team/app", 1, "timer");

    await().atMost(Duration.ofSeconds(10)).until(() -> spool.status().pendingEvents() == 0);
    assertThat(mite.received()).extracting(EventSenderIT::key).containsExactly("run-a/1");
  }

  @Test
  void pushesTenThousandEventsThroughInOrderWithoutLossOrDuplicates() throws Exception {
    EventSpool spool = jenkins();
    BuildEventEmitter emitter = new BuildEventEmitter(spool, Clock.systemUTC());
    List<String> sent = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      String run = "run-" + (i % 100);
      SpoolAdmission admission = emitter.stageStarted(run, "team/app-" + (i % 100), "n" + i, "Stage " + i, "");
      assertThat(admission.spooled()).isTrue();
      sent.add(run + "/" + ((SpoolAdmission.Spooled) admission).key().sequence());
    }

    await().atMost(Duration.ofSeconds(60)).until(() -> spool.status().pendingEvents() == 0);
    assertThat(mite.received()).extracting(EventSenderIT::key).containsExactlyElementsOf(sent);
    assertThat(spool.status().usedBytes()).isZero();
  }

  private static Set<String> keysInFirstArrivalOrder(List<BuildEvent> events) {
    Set<String> keys = new LinkedHashSet<>();
    events.forEach(event -> keys.add(key(event)));
    return keys;
  }

  private static String key(BuildEvent event) {
    return event.getRunId() + "/" + event.getSequence();
  }
}
