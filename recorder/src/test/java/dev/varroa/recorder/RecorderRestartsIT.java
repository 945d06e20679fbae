package dev.varroa.recorder;

import static dev.varroa.recorder.BuildEvents.event;
import static dev.varroa.recorder.BuildEvents.group;
import static dev.varroa.recorder.BuildEvents.publish;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.RunStarted;
import dev.varroa.testfixtures.nats.NatsServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.process.Executable;
import dev.varroa.testfixtures.process.LocalProcess;
import dev.varroa.testfixtures.process.LoopbackPort;
import dev.varroa.testfixtures.process.ThrowawayDirectory;
import dev.varroa.testfixtures.postgres.PostgresServer;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import io.nats.client.Connection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A restart of the recorder or of PostgreSQL mid-stream costs a delay, never an event (seed 000). */
class RecorderRestartsIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

  private static final int EVENTS_PER_GROUP = 5;
  private static final Duration RECOVERED_WITHIN = Duration.ofSeconds(90);

  private static RecorderSettings settings(String url) {
    PostgresServer postgres = POSTGRES.server();
    return RecorderSettings.of(url, postgres.user(), postgres.password(), NATS.server().url()).withHealthPort(0);
  }

  // Group g carries the events 5g+1..5g+5 of run "run-<g mod 4>": runs interleave across groups.
  private static void publishGroups(Connection nats, ControllerIdentity controller, int from, int to) throws Exception {
    for (int g = from; g < to; g++) {
      String runId = "run-" + (g % 4);
      List<BuildEvent> events = new ArrayList<>();
      for (int i = 1; i <= EVENTS_PER_GROUP; i++) {
        long sequence = (long) (g / 4) * EVENTS_PER_GROUP + i;
        events.add(event(runId, sequence, "team/app/main")
            .setRunStarted(RunStarted.newBuilder().setBuildNumber(g % 4 + 1).setNode("node-" + sequence)).build());
      }
      publish(nats, controller, group(controller, events));
    }
  }

  private static void assertEverythingRecordedOnce(RecordedRows rows, ControllerIdentity controller, int groups) {
    await().atMost(RECOVERED_WITHIN).until(() -> safeCount(rows, controller) == (long) groups * EVENTS_PER_GROUP);
    assertThat(rows.count("SELECT count(*) FROM runs WHERE controller_uid = ?", controller.uid())).isEqualTo(4);
    long perRun = (long) groups / 4 * EVENTS_PER_GROUP;
    assertThat(rows.query("SELECT DISTINCT last_sequence FROM runs WHERE controller_uid = ?", controller.uid()))
        .extracting(row -> row.get("last_sequence")).containsExactly(perRun);
    // The highest sequence's node won on every run, whatever order the groups were written in.
    assertThat(rows.query("SELECT DISTINCT node FROM runs WHERE controller_uid = ?", controller.uid()))
        .extracting(row -> row.get("node")).containsExactly("node-" + perRun);
  }

  private static long safeCount(RecordedRows rows, ControllerIdentity controller) {
    try {
      return rows.count("SELECT count(*) FROM run_events WHERE controller_uid = ?", controller.uid());
    } catch (IllegalStateException databaseDown) {
      return -1;
    }
  }

  private static int readyz(Recorder recorder) throws Exception {
    return HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + recorder.healthPort() + "/readyz")).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  @Test
  void aRecorderRestartMidStreamLosesNothing() throws Exception {
    String url = POSTGRES.server().createDatabase("recorder_restart");
    RecordedRows rows = RecordedRows.of(POSTGRES.server(), url);
    ControllerIdentity controller = new ControllerIdentity("team-a", "ci", UUID.randomUUID().toString());
    try (Connection nats = NATS.server().connect()) {
      Recorder first = Recorder.start(settings(url));
      try {
        publishGroups(nats, controller, 0, 40);
        await().atMost(RECOVERED_WITHIN).until(() -> safeCount(rows, controller) >= 10);
      } finally {
        first.close();
      }
      // Published while no recorder runs: JetStream keeps them for the durable consumer.
      publishGroups(nats, controller, 40, 80);
      try (Recorder second = Recorder.start(settings(url))) {
        assertEverythingRecordedOnce(rows, controller, 80);
      }
    }
  }

  @Test
  void aNatsRestartMidStreamLosesNothing() throws Exception {
    String url = POSTGRES.server().createDatabase("nats_restart");
    RecordedRows rows = RecordedRows.of(POSTGRES.server(), url);
    ControllerIdentity controller = new ControllerIdentity("team-a", "ci", UUID.randomUUID().toString());
    // A nats-server of its own: the same port and store directory across the restart, as a pod with its volume.
    try (ThrowawayDirectory store = ThrowawayDirectory.create("varroa-recorder-nats-")) {
      int port = LoopbackPort.pickFree();
      String natsUrl = "nats://" + LoopbackPort.HOST + ":" + port;
      LocalProcess server = startNats(store, port);
      RecorderSettings settings = RecorderSettings.of(url, POSTGRES.server().user(), POSTGRES.server().password(), natsUrl)
          .withHealthPort(0);
      try (Recorder recorder = Recorder.start(settings)) {
        try (Connection nats = new NatsServer(natsUrl).connect()) {
          publishGroups(nats, controller, 0, 40);
        }
        await().atMost(RECOVERED_WITHIN).until(() -> safeCount(rows, controller) >= 10);
        server.close();
        await().atMost(RECOVERED_WITHIN).until(() -> readyz(recorder) == 503);
        server = startNats(store, port);
        try (Connection nats = new NatsServer(natsUrl).connect()) {
          publishGroups(nats, controller, 40, 80);
        }
        assertEverythingRecordedOnce(rows, controller, 80);
        await().atMost(RECOVERED_WITHIN).until(() -> readyz(recorder) == 200);
      } finally {
        server.close();
      }
    }
  }

  private static LocalProcess startNats(ThrowawayDirectory store, int port) throws InterruptedException {
    NatsServer server = new NatsServer("nats://" + LoopbackPort.HOST + ":" + port);
    return LocalProcess.start("nats-server", List.of(Executable.require("nats-server", "nats-server").toString(),
        "-a", LoopbackPort.HOST, "-p", Integer.toString(port), "-js", "-sd", store.resolve("jetstream").toString()),
        store.resolve("nats-server.log"), Duration.ofSeconds(30), () -> {
          try (Connection probe = server.connect()) {
            probe.jetStreamManagement().getAccountStatistics();
            return true;
          }
        });
  }

  @Test
  void aPostgresRestartMidStreamLosesNothing() throws Exception {
    String url = POSTGRES.server().createDatabase("postgres_restart");
    RecordedRows rows = RecordedRows.of(POSTGRES.server(), url);
    ControllerIdentity controller = new ControllerIdentity("team-a", "ci", UUID.randomUUID().toString());
    try (Connection nats = NATS.server().connect(); Recorder recorder = Recorder.start(settings(url))) {
      publishGroups(nats, controller, 0, 40);
      await().atMost(RECOVERED_WITHIN).until(() -> safeCount(rows, controller) >= 10);
      POSTGRES.server().crash();
      try {
        publishGroups(nats, controller, 40, 80);
        await().atMost(RECOVERED_WITHIN).until(() -> readyz(recorder) == 503);
      } finally {
        POSTGRES.server().start();
      }
      assertEverythingRecordedOnce(rows, controller, 80);
      await().atMost(RECOVERED_WITHIN).until(() -> readyz(recorder) == 200);
    }
  }
}
