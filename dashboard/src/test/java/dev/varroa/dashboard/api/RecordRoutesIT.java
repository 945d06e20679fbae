package dev.varroa.dashboard.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffStack;
import dev.varroa.dashboard.logs.ConsoleLogTail;
import dev.varroa.dashboard.mcp.McpEndpoint;
import dev.varroa.dashboard.records.DashboardDatabase;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.CellFolders;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.bus.v1.LogAppended;
import dev.varroa.recorder.logs.BlobStoreSettings;
import dev.varroa.recorder.logs.LogKey;
import dev.varroa.recorder.logs.LogStore;
import dev.varroa.recorder.logs.LogStores;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.oidc.BrowserLogin;
import dev.varroa.testfixtures.oidc.OidcProviderExtension;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.nats.client.Connection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The record store's routes and the live streams over real PostgreSQL, NATS JetStream, operator, API server and
 * OpenID provider: runs, stages and console logs by range and live, activity history, and live activity resumed with
 * Last-Event-ID without loss or repeat, each filtered by VarroaRoleBindings.
 */
@WithKubeApiServer
class RecordRoutesIT {

  private static final int PORT = BffFixtures.port();
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();
  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(BffFixtures.user("alice"), BffFixtures.user("bob"),
      BffFixtures.user("dave"), BffFixtures.user("erin")), List.of(BffStack.redirectUri(PORT)));

  private static final Map<String, String> TOKENS = new HashMap<>();
  private static Connection operatorBus;
  private static Connection bffBus;
  private static DashboardDatabase database;
  private static LogStore writer;
  private static KubernetesClient client;
  private static BffStack stack;
  private static ActivityPublisher activity;
  private static final String ORDERS_RUN = UUID.randomUUID().toString();
  private static final String SEARCH_RUN = UUID.randomUUID().toString();
  // runs on a cell of pool shared in namespace cells, in the folders of Teams of team-a and team-b
  private static final String CELL_TEAM_A_RUN = UUID.randomUUID().toString();
  private static final String CELL_TEAM_B_RUN = UUID.randomUUID().toString();



  @BeforeAll
  static void start(KubeApiServer kube, @TempDir Path folder) throws Exception {
    client = kube.client();
    BffFixtures.namespaces(client, "team-a", "team-b", "cells");
    BffFixtures.controller(client, "team-a", "orders", Map.of());
    BffFixtures.controller(client, "team-b", "search", Map.of());
    BffFixtures.controller(client, "cells", "shared-0", Map.of(CellFolders.POOL_LABEL, "shared"));
    BffFixtures.readerRole(client);
    BffFixtures.binding(client, "alice-reads-all", "reader", "User", "alice", null);
    BffFixtures.binding(client, "bob-reads-team-b", "reader", "User", "bob", "team-b");

    database = DashboardDatabase.create(POSTGRES.server(), "routes", folder);
    run("uid-orders", ORDERS_RUN, "team-a", "orders", "orders/main", 7);
    run("uid-search", SEARCH_RUN, "team-b", "search", "search/main", 3);
    run("uid-shared-0", CELL_TEAM_A_RUN, "cells", "shared-0", "team-a_web/build", 1);
    run("uid-shared-0", CELL_TEAM_B_RUN, "cells", "shared-0", "team-b_api/build", 1);
    database.execute("INSERT INTO stages (controller_uid, run_id, stage_id, name, parallel_branch, name_sequence, "
        + "started_at, status, duration_millis, ended_at) VALUES ('uid-orders', ?, '7', 'Build', '', 2, ?, "
        + "'SUCCESS', 3000, ?)", ORDERS_RUN, Timestamp.from(T0.plusSeconds(6)), Timestamp.from(T0.plusSeconds(9)));
    database.execute("INSERT INTO test_summaries (controller_uid, run_id, total, failed, skipped, summary_sequence) "
        + "VALUES ('uid-orders', ?, 12, 1, 0, 4)", ORDERS_RUN);
    for (int i = 0; i < 3; i++) {
      database.execute("INSERT INTO activity (id, cluster, namespace, controller, kind, actor, summary, occurred_at) "
          + "VALUES (?, ?, ?, ?, 'controller.phase_changed', 'operator', ?, ?)", UUID.randomUUID(), BffStack.CLUSTER,
          i == 2 ? "team-b" : "team-a", i == 2 ? "search" : "orders", "history " + i,
          Timestamp.from(T0.plusSeconds(i)));
    }
    jobSchedules("uid-orders", "team-a", "orders", "orders/nightly", "H 2 * * *");
    jobSchedules("uid-search", "team-b", "search", "search/reindex", "@weekly");
    writer = LogStores.open(BlobStoreSettings.postgresWithPassword(database.url(), POSTGRES.server().user(),
        POSTGRES.server().password())).orElseThrow();
    writer.write(logKey(ORDERS_RUN, "team-a", "orders"), 0, "Started by user alice\n".getBytes(StandardCharsets.UTF_8),
        false);

    operatorBus = NATS.server().connect();
    bffBus = NATS.server().connect();
    BusTopology.ensureActivity(operatorBus);
    activity = new ActivityPublisher(() -> operatorBus, BffStack.CLUSTER, "operator", Clock.systemUTC());
    stack = BffStack.startRecorded(client, folder.resolve("cache"), operatorBus, bffBus,
        BffStack.oidc(OIDC.provider(), PORT), PORT, database, folder.resolve("bff-db-password"),
        logs -> McpEndpoint.mount(new ConsoleLogTail(logs)));
    for (String name : List.of("alice", "bob", "dave", "erin")) {
      TOKENS.put(name, BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), name, BffFixtures.password(name))
          .idToken());
    }
    await().atMost(DEADLINE).until(() -> get("/runs", "bob").statusCode() == 200
        && JSON.readTree(get("/controllers", "alice").body()).path("items").size() == 3);
  }

  @AfterAll
  static void stop() throws Exception {
    stack.close();
    writer.close();
    database.close();
    operatorBus.close();
    bffBus.close();
  }

  @Test
  void runsAreFilteredByBindingAndOneRunHasItsStagesAndTests() throws Exception {
    assertThat(field(json(get("/runs", "alice"), 200).path("items"), "runId"))
        .containsExactlyInAnyOrder(ORDERS_RUN, SEARCH_RUN, CELL_TEAM_A_RUN, CELL_TEAM_B_RUN);
    // bob reads team-b: its Controller's runs, and on the cell the runs in the folder of its Team only
    assertThat(field(json(get("/runs", "bob"), 200).path("items"), "runId"))
        .containsExactlyInAnyOrder(SEARCH_RUN, CELL_TEAM_B_RUN);
    JsonNode run = json(get("/runs/" + ORDERS_RUN, "alice"), 200);
    assertThat(run.path("job").asText()).isEqualTo("orders/main");
    assertThat(run.path("build").asLong()).isEqualTo(7);
    assertThat(run.path("startedAt").asText()).isEqualTo("2026-11-30T10:00:05Z");
    assertThat(run.path("stages").get(0).path("name").asText()).isEqualTo("Build");
    assertThat(run.path("tests").path("failed").asInt()).isEqualTo(1);
    assertThat(json(get("/runs/" + ORDERS_RUN, "bob"), 403).path("missing").path("resource").asText())
        .isEqualTo("runs");
    json(get("/runs/" + UUID.randomUUID(), "alice"), 404);
    assertThat(json(get("/runs?limit=501", "alice"), 400).path("parameter").asText()).isEqualTo("limit");
    assertThat(field(json(get("/search?q=ORDERS", "alice"), 200).path("runs"), "runId")).containsExactly(ORDERS_RUN);
  }

  @Test
  void aTenantReadsItsOwnTeamsRunsOnACellAndNoOtherTeams() throws Exception {
    assertThat(json(get("/runs/" + CELL_TEAM_B_RUN, "bob"), 200).path("job").asText()).isEqualTo("team-b_api/build");
    assertThat(json(get("/runs/" + CELL_TEAM_A_RUN, "bob"), 403).path("missing").path("namespace").asText())
        .isEqualTo("cells");
    assertThat(field(json(get("/search?q=build", "bob"), 200).path("runs"), "runId")).containsExactly(CELL_TEAM_B_RUN);
    assertThat(field(json(get("/runs?controller=shared-0", "alice"), 200).path("items"), "runId"))
        .containsExactlyInAnyOrder(CELL_TEAM_A_RUN, CELL_TEAM_B_RUN);
  }

  @Test
  void jobSchedulesComeFromTheRecordStoreFilteredByBinding() throws Exception {
    JsonNode all = json(get("/broodschedules", "alice"), 200);
    assertThat(all.path("recordStore").asBoolean()).isTrue();
    assertThat(field(all.path("jobSchedules"), "job")).containsExactly("orders/nightly", "search/reindex");
    JsonNode orders = all.path("jobSchedules").get(0);
    assertThat(orders.path("cluster").asText()).isEqualTo(BffStack.CLUSTER);
    assertThat(orders.path("namespace").asText()).isEqualTo("team-a");
    assertThat(orders.path("controller").asText()).isEqualTo("orders");
    assertThat(orders.path("controllerUid").asText()).isEqualTo("uid-orders");
    assertThat(orders.path("timerSpecs").get(0).asText()).isEqualTo("H 2 * * *");
    assertThat(orders.path("observedAt").asText()).isEqualTo("2026-11-30T10:00:00Z");
    assertThat(field(json(get("/broodschedules", "bob"), 200).path("jobSchedules"), "job"))
        .containsExactly("search/reindex");
  }

  private static void jobSchedules(String uid, String namespace, String controller, String job, String spec)
      throws Exception {
    database.execute("INSERT INTO job_schedule_inventories (controller_uid, cluster, namespace, controller_name,"
        + " observed_at) VALUES (?, ?, ?, ?, ?)", uid, BffStack.CLUSTER, namespace, controller, Timestamp.from(T0));
    database.execute("INSERT INTO job_schedules (controller_uid, job, cluster, namespace, controller_name,"
        + " timer_specs, observed_at) VALUES (?, ?, ?, ?, ?, ARRAY[?::text], ?)", uid, job, BffStack.CLUSTER,
        namespace, controller, spec, Timestamp.from(T0));
  }

  @Test
  void aConsoleLogByRangeAndLiveUntilItIsComplete() throws Exception {
    HttpResponse<String> head = get("/runs/" + ORDERS_RUN + "/log?from=0&length=7", "alice");
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.body()).isEqualTo("Started");
    assertThat(head.headers().firstValue("Varroa-Log-Next")).contains("7");
    assertThat(head.headers().firstValue("Varroa-Log-Complete")).contains("false");
    assertThat(json(get("/runs/" + ORDERS_RUN + "/log?length=0", "alice"), 400).path("parameter").asText())
        .isEqualTo("length");
    assertThat(json(get("/runs/" + ORDERS_RUN + "/log", "bob"), 403).path("missing").path("resource").asText())
        .isEqualTo("logs");

    try (SseClient live = SseClient.open(uri("/runs/" + ORDERS_RUN + "/log/stream?from=8"), TOKENS.get("alice"),
        null)) {
      assertThat(live.status).isEqualTo(200);
      await().atMost(DEADLINE).until(() -> !live.named("chunk").isEmpty());
      byte[] last = "Finished: SUCCESS\n".getBytes(StandardCharsets.UTF_8);
      long offset = "Started by user alice\n".length();
      writer.write(logKey(ORDERS_RUN, "team-a", "orders"), offset, last, true);
      announce(ORDERS_RUN, "team-a", "orders", offset, offset + last.length);
      await().atMost(DEADLINE).until(() -> !live.named("end").isEmpty());
      StringBuilder text = new StringBuilder();
      for (SseClient.Event chunk : live.named("chunk")) {
        text.append(JSON.readTree(chunk.data()).path("text").asText());
      }
      assertThat(text.toString()).isEqualTo("by user alice\nFinished: SUCCESS\n");
    }
  }

  @Test
  void activityHistoryNewestFirstAndFilteredByBinding() throws Exception {
    JsonNode all = json(get("/activity?since=2026-11-30T00:00:00Z", "alice"), 200);
    assertThat(all.path("recordStore").asBoolean()).isTrue();
    assertThat(field(all.path("items"), "summary")).startsWith("history 2", "history 1", "history 0");
    assertThat(field(json(get("/activity", "bob"), 200).path("items"), "summary")).containsExactly("history 2");
    assertThat(json(get("/activity?since=yesterday", "alice"), 400).path("parameter").asText()).isEqualTo("since");
  }

  @Test
  void liveActivityResumesWithLastEventIdWithoutLossOrRepeat() throws Exception {
    String marker = "resume-" + UUID.randomUUID();
    List<String> first;
    String lastId;
    try (SseClient alice = SseClient.open(uri("/activity/stream?namespace=team-a"), TOKENS.get("alice"), null);
        SseClient bob = SseClient.open(uri("/activity/stream"), TOKENS.get("bob"), null)) {
      assertThat(alice.status).isEqualTo(200);
      awaitSubscribers(2);
      publish(marker, 0, 10);
      await().atMost(DEADLINE).until(() -> summaries(alice, marker).size() == 10);
      first = summaries(alice, marker);
      lastId = alice.named("activity").get(alice.named("activity").size() - 1).id();
      // bob's binding covers team-b only: the team-a events never reach him
      assertThat(summaries(bob, marker)).isEmpty();
    }
    // published while alice was away
    publish(marker, 10, 20);
    try (SseClient again = SseClient.open(uri("/activity/stream?namespace=team-a"), TOKENS.get("alice"), lastId)) {
      publish(marker, 20, 25);
      await().atMost(DEADLINE).until(() -> summaries(again, marker).size() >= 15);
      List<String> all = new java.util.ArrayList<>(first);
      all.addAll(summaries(again, marker));
      assertThat(all).containsExactlyElementsOf(IntStream.range(0, 25).mapToObj(i -> marker + " " + i).toList());
      List<Long> ids = again.named("activity").stream().map(e -> Long.parseLong(e.id())).toList();
      assertThat(ids).isSorted().doesNotHaveDuplicates().allMatch(id -> id > Long.parseLong(lastId));
    }
  }

  @Test
  void anOpenLogStreamEndsWhenItsBindingGoes() throws Exception {
    BffFixtures.binding(client, "erin-reads-team-b", "reader", "User", "erin", "team-b");
    await().atMost(DEADLINE).until(() -> get("/runs/" + SEARCH_RUN, "erin").statusCode() == 200);
    // no test writes search's log: the stream waits for its first byte until something ends it
    try (SseClient live = SseClient.open(uri("/runs/" + SEARCH_RUN + "/log/stream"), TOKENS.get("erin"), null)) {
      assertThat(live.status).isEqualTo(200);
      assertThat(live.ended()).isFalse();
      client.resources(dev.varroa.api.v1alpha1.VarroaRoleBinding.class).withName("erin-reads-team-b").delete();
      await().atMost(DEADLINE).until(live::ended);
      assertThat(live.named("end")).singleElement().satisfies(end -> assertThat(JSON.readTree(end.data())
          .path("reason").asText()).contains("may no longer watch the logs of controller team-b/search"));
    }
  }

  @Test
  void liveActivityNeedsWatch() throws Exception {
    try (SseClient dave = SseClient.open(uri("/activity/stream"), TOKENS.get("dave"), null)) {
      assertThat(dave.status).isEqualTo(403);
    }
    try (SseClient bad = SseClient.open(uri("/activity/stream"), TOKENS.get("alice"), "not-a-number")) {
      assertThat(bad.status).isEqualTo(400);
    }
  }

  private static void publish(String marker, int from, int to) {
    long start = activity.published();
    for (int i = from; i < to; i++) {
      activity.controller("team-a", "orders", "controller.phase_changed", marker + " " + i, Map.of());
    }
    await().atMost(DEADLINE).until(() -> activity.published() >= start + (to - from));
  }

  private static void awaitSubscribers(int count) {
    await().atMost(DEADLINE).until(() -> stack.fanout().subscribers() >= count);
  }

  private static List<String> summaries(SseClient client, String marker) {
    return client.named("activity").stream().map(e -> {
      try {
        return JSON.readTree(e.data()).path("summary").asText();
      } catch (java.io.IOException ex) {
        throw new IllegalStateException(ex);
      }
    }).filter(s -> s.startsWith(marker)).toList();
  }

  private static void run(String uid, String runId, String ns, String controller, String job, long build)
      throws Exception {
    database.execute("INSERT INTO runs (controller_uid, run_id, cluster, namespace, controller_name, job, "
        + "build_number, started_at, last_sequence) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)", uid, runId, BffStack.CLUSTER,
        ns, controller, job, build, Timestamp.from(T0.plusSeconds(5)));
  }

  private static LogKey logKey(String runId, String ns, String controller) {
    return new LogKey(BffStack.CLUSTER, ns, controller, runId);
  }

  private static void announce(String runId, String ns, String controller, long offset, long storedThrough) {
    ControllerIdentity identity = new ControllerIdentity(ns, controller, "uid-" + controller);
    operatorBus.publish(BusNames.logAppended(BffStack.CLUSTER, identity, runId), LogAppended.newBuilder()
        .setController(identity.toRef()).setCluster(BffStack.CLUSTER).setRunId(runId).setOffset(offset)
        .setStoredThrough(storedThrough).setComplete(true).build().toByteArray());
  }

  private static List<String> field(JsonNode items, String name) {
    return StreamSupport.stream(items.spliterator(), false).map(i -> i.path(name).asText()).toList();
  }

  private static JsonNode json(HttpResponse<String> response, int status) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    return JSON.readTree(response.body());
  }

  private static HttpResponse<String> get(String path, String user) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + TOKENS.get(user)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static URI uri(String path) {
    return URI.create(stack.url() + path);
  }

}
