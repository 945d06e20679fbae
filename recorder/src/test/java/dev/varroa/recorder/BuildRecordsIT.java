package dev.varroa.recorder;

import static dev.varroa.recorder.BuildEvents.event;
import static dev.varroa.recorder.BuildEvents.group;
import static dev.varroa.recorder.BuildEvents.publish;
import static dev.varroa.recorder.BuildEvents.schedule;
import static dev.varroa.recorder.BuildEvents.schedules;
import static dev.varroa.recorder.BuildEvents.wholeRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.bus.v1.BuildEventGroup;
import dev.varroa.recorder.store.BuildEventWriter;
import dev.varroa.recorder.store.RecordStore;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import io.nats.client.Connection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class BuildRecordsIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

  private static final Duration RECORDED_WITHIN = Duration.ofSeconds(20);
  private static final String RUN_COLUMNS = "cluster, namespace, controller_name, job, build_number, queue_id, queued_at,"
      + " cause, node, queued_millis, started_at, result, duration_millis, completed_at, finalized_at, last_sequence";

  private static Recorder recorder;
  private static Connection nats;
  private static RecordedRows rows;

  @BeforeAll
  static void startRecorder() throws Exception {
    var postgres = POSTGRES.server();
    recorder = Recorder.start(RecorderSettings.of(postgres.jdbcUrl(), postgres.user(), postgres.password(),
        NATS.server().url()).withHealthPort(0));
    nats = NATS.server().connect();
    rows = RecordedRows.of(postgres, postgres.jdbcUrl());
  }

  @AfterAll
  static void stopRecorder() throws Exception {
    if (nats != null) {
      nats.close();
    }
    if (recorder != null) {
      recorder.close();
    }
  }

  private static ControllerIdentity newController() {
    return new ControllerIdentity("team-a", "ci", UUID.randomUUID().toString());
  }

  private static Map<String, Object> run(ControllerIdentity controller, String runId) {
    List<Map<String, Object>> found = rows.query("SELECT " + RUN_COLUMNS + " FROM runs WHERE controller_uid = ? AND run_id = ?",
        controller.uid(), runId);
    return found.isEmpty() ? null : found.get(0);
  }

  private static void awaitEvents(ControllerIdentity controller, long events) {
    await().atMost(RECORDED_WITHIN).until(() -> rows.count("SELECT count(*) FROM run_events WHERE controller_uid = ?",
        controller.uid()) >= events);
  }

  @Test
  void recordsARunItsStagesAndItsTests() throws Exception {
    ControllerIdentity controller = newController();
    publish(nats, controller, group(controller, wholeRun("run-1", "team/app/main", 7)));
    awaitEvents(controller, 7);

    Map<String, Object> run = run(controller, "run-1");
    assertThat(run).containsEntry("cluster", "eu-1").containsEntry("namespace", "team-a")
        .containsEntry("controller_name", "ci").containsEntry("job", "team/app/main")
        .containsEntry("build_number", 7L).containsEntry("queue_id", 41L)
        .containsEntry("cause", "Started by user admin").containsEntry("node", "agent-1")
        .containsEntry("queued_millis", 350L).containsEntry("result", "SUCCESS")
        .containsEntry("duration_millis", 1200L).containsEntry("last_sequence", 7L);
    assertThat(run.get("queued_at")).isNotNull();
    assertThat(run.get("started_at")).isNotNull();
    assertThat(run.get("completed_at")).isNotNull();
    assertThat(run.get("finalized_at")).isNotNull();
    assertThat(rows.query("SELECT stage_id, name, parallel_branch, status, duration_millis FROM stages"
        + " WHERE controller_uid = ?", controller.uid()))
        .containsExactly(Map.of("stage_id", "6", "name", "Build", "parallel_branch", "linux", "status", "SUCCESS",
            "duration_millis", 900L));
    assertThat(rows.query("SELECT total, failed, skipped FROM test_summaries WHERE controller_uid = ?", controller.uid()))
        .containsExactly(Map.of("total", 120, "failed", 2, "skipped", 3));
  }

  @Test
  void aRepublishedOrRedeliveredGroupChangesNothing() throws Exception {
    ControllerIdentity controller = newController();
    BuildEventGroup first = group(controller, wholeRun("run-1", "team/app/main", 3));
    publish(nats, controller, first);
    awaitEvents(controller, 7);
    List<Map<String, Object>> before = rows.query("SELECT * FROM runs WHERE controller_uid = ?", controller.uid());

    // Within the dedupe window JetStream stores the same id once; another id is a second message for the recorder.
    publish(nats, controller, first);
    publish(nats, controller, first, "another-id-" + UUID.randomUUID());
    // One event seen before inside a new group with a new one: only the new one is applied.
    publish(nats, controller, group(controller, List.of(wholeRun("run-1", "team/app/main", 3).get(6),
        event("run-2", 1, "team/app/main").build())));
    awaitEvents(controller, 8);
    // A marker published last, behind the duplicates on the same consumer.
    publish(nats, controller, group(controller, List.of(event("run-marker", 1, "team/app/main").build())));
    awaitEvents(controller, 9);

    assertThat(rows.count("SELECT count(*) FROM run_events WHERE controller_uid = ? AND run_id = 'run-1'",
        controller.uid())).isEqualTo(7);
    assertThat(rows.query("SELECT * FROM runs WHERE controller_uid = ? AND run_id = 'run-1'", controller.uid()))
        .isEqualTo(before);
    assertThat(rows.count("SELECT count(*) FROM stages WHERE controller_uid = ?", controller.uid())).isEqualTo(1);

    // A redelivery is the same group written again after its commit (the ack was lost): nothing new is applied.
    try (RecordStore store = RecordStore.open(RecorderSettings.of(POSTGRES.server().jdbcUrl(), POSTGRES.server().user(),
        POSTGRES.server().password(), NATS.server().url()))) {
      BuildEventWriter.Outcome again = new BuildEventWriter(store.dataSource(), "local").write(first);
      assertThat(again.applied()).isZero();
      assertThat(again.alreadyRecorded()).isEqualTo(7);
    }
    assertThat(rows.query("SELECT * FROM runs WHERE controller_uid = ? AND run_id = 'run-1'", controller.uid()))
        .isEqualTo(before);
  }

  @Test
  void eventsOutOfOrderEndAsInOrder() throws Exception {
    ControllerIdentity controller = newController();
    publish(nats, controller, group(controller, wholeRun("in-order", "team/app/main", 9)));
    List<BuildEvent> reversed = new ArrayList<>(wholeRun("reversed", "team/app/main", 9));
    java.util.Collections.reverse(reversed);
    // One group per event, newest first: RunFinalized before RunCompleted, RunStarted after everything else.
    for (BuildEvent late : reversed) {
      publish(nats, controller, group(controller, List.of(late)));
    }
    awaitEvents(controller, 14);

    assertThat(run(controller, "reversed")).isEqualTo(run(controller, "in-order"))
        // RunCompleted (sequence 6) said UNSTABLE after RunFinalized (7) said SUCCESS: the later sequence wins.
        .containsEntry("result", "SUCCESS").containsEntry("duration_millis", 1200L)
        .containsEntry("cause", "Started by user admin");
    String stages = "SELECT stage_id, name, parallel_branch, status, duration_millis, started_at, ended_at FROM stages"
        + " WHERE controller_uid = ? AND run_id = ?";
    assertThat(rows.query(stages, controller.uid(), "reversed")).isEqualTo(rows.query(stages, controller.uid(), "in-order"));
  }

  @Test
  void aScheduleInventoryReplacesTheControllersRows() throws Exception {
    ControllerIdentity controller = newController();
    ControllerIdentity other = newController();
    publish(nats, other, schedules(other, 1_000, schedule("other/job", "H * * * *")));
    publish(nats, controller, schedules(controller, 1_000, schedule("a", "H 2 * * *"), schedule("b", "@daily")));
    publish(nats, controller, schedules(controller, 2_000, schedule("b", "H H * * 1-5", "@midnight"), schedule("c")));
    String query = "SELECT job, timer_specs FROM job_schedules WHERE controller_uid = ? ORDER BY job";
    await().atMost(RECORDED_WITHIN).until(() -> rows.query(query, controller.uid()).size() == 2
        && rows.query(query, controller.uid()).get(0).get("job").equals("b"));

    // A late redelivery of an older inventory does not bring old rows back.
    publish(nats, controller, schedules(controller, 500, schedule("stale")));
    publish(nats, other, schedules(other, 2_000, schedule("other/job", "H * * * *"), schedule("other/marker")));
    await().atMost(RECORDED_WITHIN).until(() -> rows.query(query, other.uid()).size() == 2);
    assertThat(rows.query(query, controller.uid())).containsExactly(
        Map.of("job", "b", "timer_specs", List.of("H H * * 1-5", "@midnight")),
        Map.of("job", "c", "timer_specs", List.of()));
  }

  @Test
  void answersProbes() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    URI base = URI.create("http://127.0.0.1:" + recorder.healthPort());
    HttpResponse<String> health = http.send(HttpRequest.newBuilder(base.resolve("/healthz")).build(),
        HttpResponse.BodyHandlers.ofString());
    HttpResponse<String> ready = http.send(HttpRequest.newBuilder(base.resolve("/readyz")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(ready.statusCode()).isEqualTo(200);
  }
}
