package dev.varroa.operator.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.operator.bffresponders.ManifestCheckResponder;
import dev.varroa.operator.manifests.ControllerSchema;
import dev.varroa.operator.manifests.ManifestCheck;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.ManifestCheckAnswer;
import dev.varroa.protocol.bus.v1.ManifestCheckRequest;
import dev.varroa.testfixtures.helm.HelmChart;
import dev.varroa.testfixtures.nats.NatsServerProcess;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.ErrorListener;
import io.nats.client.KeyValue;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.OrderedConsumerContext;
import io.nats.client.Options;
import io.nats.client.Subscription;
import io.nats.client.api.DeliverPolicy;
import io.nats.client.api.KeyValueConfiguration;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueWatcher;
import io.nats.client.api.OrderedConsumerConfiguration;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The chart's dashboard user (the BFF) on a real nats-server with the rendered nats.conf: it lists the registered
 * clusters, reads and watches the access policy, asks an operator for controller rows and one controller, follows
 * varroa_activity from a sequence with an ordered consumer and hears live activity and log announcements, with
 * nothing refused; and it may write nothing: no KV entry, no event, not the recorder's durable consumer.
 */
class DashboardNatsPermissionsIT {
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final String OPERATOR_PASSWORD = "operator-" + UUID.randomUUID();
  private static final String GATEWAY_PASSWORD = "gateway-" + UUID.randomUUID();
  private static final String RECORDER_PASSWORD = "recorder-" + UUID.randomUUID();
  private static final String DASHBOARD_PASSWORD = "dashboard-" + UUID.randomUUID();
  private static final String ACCESS_BUCKET = "varroa_access";

  private NatsServerProcess nats;
  private final Queue<String> errors = new ConcurrentLinkedQueue<>();
  private final Queue<String> dashboardErrors = new ConcurrentLinkedQueue<>();

  @BeforeEach
  void startNatsWithTheRenderedConfig() throws Exception {
    String config;
    try (HelmChart chart = HelmChart.varroa()) {
      config = ChartNatsConfig.forLoopback(chart.template(HelmChart.Render.in(ChartRbac.NAMESPACE)
          .set("recordStore.enabled", "true").withApiVersion("postgresql.cnpg.io/v1/Cluster")), Map.of(
          "SERVER_NAME", "chart-dashboard-it", "OPERATOR_PASSWORD", OPERATOR_PASSWORD,
          "GATEWAY_PASSWORD", GATEWAY_PASSWORD, "RECORDER_PASSWORD", RECORDER_PASSWORD,
          "DASHBOARD_PASSWORD", DASHBOARD_PASSWORD));
    }
    assertThat(config).contains("user: dashboard");
    nats = NatsServerProcess.startWithConfig(ChartNatsConfig.withoutTls(config));
  }

  @AfterEach
  void stopNats() throws InterruptedException {
    if (nats != null) {
      nats.close();
    }
  }

  @Test
  void theDashboardUserReadsEverythingTheBffNeeds() throws Exception {
    ControllerIdentity controller = new ControllerIdentity("ci", "sandbox", UUID.randomUUID().toString());
    try (Connection operator = connect("operator", OPERATOR_PASSWORD, errors);
        Connection gateway = connect("gateway", GATEWAY_PASSWORD, errors);
        Connection recorder = connect("recorder", RECORDER_PASSWORD, errors);
        Connection dashboard = connect("dashboard", DASHBOARD_PASSWORD, dashboardErrors)) {
      BusTopology.ensure(operator);
      BusTopology.ensureClusters(operator);
      BusTopology.ensureActivity(recorder);
      operator.keyValue(BusNames.CLUSTERS_BUCKET).put("core", "presence".getBytes(StandardCharsets.UTF_8));
      operator.keyValueManagement().create(KeyValueConfiguration.builder().name(ACCESS_BUCKET).build());
      operator.keyValue(ACCESS_BUCKET).put("policy", "policy-1".getBytes(StandardCharsets.UTF_8));
      Dispatcher responder = operator.createDispatcher(m -> operator.publish(m.getReplyTo(), m.getSubject()
          .getBytes(StandardCharsets.UTF_8)));
      responder.subscribe(BusNames.clusterControllers("core"), BusNames.OPERATOR_QUEUE_GROUP);
      responder.subscribe("varroa.clusters.core.controller", BusNames.OPERATOR_QUEUE_GROUP);
      responder.subscribe(BusNames.clusterActions("core"), BusNames.OPERATOR_QUEUE_GROUP);
      responder.subscribe(BusNames.clusterBroodOperations("core"), BusNames.OPERATOR_QUEUE_GROUP);
      responder.subscribe(BusNames.clusterBroodSchedules("core"), BusNames.OPERATOR_QUEUE_GROUP);
      responder.subscribe(BusNames.clusterCellPools("core"), BusNames.OPERATOR_QUEUE_GROUP);
      for (int i = 1; i <= 3; i++) {
        operator.publish(NatsMessage.builder().subject(BusNames.activity("core", "ci", "sandbox"))
            .headers(new Headers().put("Nats-Msg-Id", UUID.randomUUID().toString())).data(new byte[] {(byte) i}).build());
      }
      operator.flush(DEADLINE);

      // ClusterRoster: bucket names, keys, entries
      assertThat(dashboard.keyValueManagement().getBucketNames()).contains(BusNames.CLUSTERS_BUCKET, ACCESS_BUCKET);
      KeyValue clusters = dashboard.keyValue(BusNames.CLUSTERS_BUCKET);
      assertThat(clusters.keys()).containsExactly("core");
      assertThat(new String(clusters.get("core").getValue(), StandardCharsets.UTF_8)).isEqualTo("presence");

      // The access policy, read and watched
      KeyValue access = dashboard.keyValue(ACCESS_BUCKET);
      assertThat(new String(access.get("policy").getValue(), StandardCharsets.UTF_8)).isEqualTo("policy-1");
      Queue<String> watched = new ConcurrentLinkedQueue<>();
      access.watch("policy", new KeyValueWatcher() {
        @Override
        public void watch(KeyValueEntry entry) {
          watched.add(new String(entry.getValue(), StandardCharsets.UTF_8));
        }

        @Override
        public void endOfData() {
        }
      });
      operator.keyValue(ACCESS_BUCKET).put("policy", "policy-2".getBytes(StandardCharsets.UTF_8));
      await().atMost(DEADLINE).until(() -> watched.contains("policy-2"));

      // Controller rows and one controller, from the operator's queue group
      Message rows = dashboard.request(BusNames.clusterControllers("core"), new byte[0], DEADLINE);
      assertThat(rows).isNotNull();
      Message detail = dashboard.request("varroa.clusters.core.controller", new byte[0], DEADLINE);
      assertThat(new String(detail.getData(), StandardCharsets.UTF_8)).isEqualTo("varroa.clusters.core.controller");
      // An action it authorized, to the cluster's operator (docs/actions.md)
      Message action = dashboard.request(BusNames.clusterActions("core"), new byte[0], DEADLINE);
      assertThat(new String(action.getData(), StandardCharsets.UTF_8)).isEqualTo(BusNames.clusterActions("core"));
      // The brood operation and schedule lists, and the cell pools and teams (docs/dashboard-api.md)
      for (String subject : new String[] {BusNames.clusterBroodOperations("core"),
          BusNames.clusterBroodSchedules("core"), BusNames.clusterCellPools("core")}) {
        assertThat(new String(dashboard.request(subject, new byte[0], DEADLINE).getData(), StandardCharsets.UTF_8))
            .isEqualTo(subject);
      }

      // The manifest check: the BFF forwards, the core's operator answers with the real responder
      try (ManifestCheckResponder checks = new ManifestCheckResponder(operator, "core",
          new ManifestCheck(ControllerSchema.load()), Optional::empty)) {
        checks.start();
        operator.flush(DEADLINE);
        Message checked = dashboard.request(BusNames.clusterManifestCheck("core"), ManifestCheckRequest.newBuilder()
            .setManifestYaml("apiVersion: varroa.dev/v1alpha1\nkind: Controller\nmetadata: {name: a, namespace: ci}\n"
                + "spec: {}\n").setCaller("alice").build().toByteArray(), DEADLINE);
        assertThat(checked).as("the operator's answer to the dashboard user's check").isNotNull();
        assertThat(ManifestCheckAnswer.parseFrom(checked.getData()).getValid()).isTrue();
      }

      // Live activity resumed after sequence 1 (Last-Event-ID: 1), with an ordered consumer
      OrderedConsumerContext ordered = dashboard.getStreamContext(BusNames.ACTIVITY_STREAM).createOrderedConsumer(
          new OrderedConsumerConfiguration().filterSubject(BusNames.activityFilter())
              .deliverPolicy(DeliverPolicy.ByStartSequence).startSequence(2));
      List<Byte> resumed = new ArrayList<>();
      await().atMost(DEADLINE).until(() -> {
        Message next = ordered.next(Duration.ofSeconds(1));
        if (next != null) {
          resumed.add(next.getData()[0]);
        }
        return resumed.size() == 2;
      });
      assertThat(resumed).containsExactly((byte) 2, (byte) 3);

      // Core subscriptions: activity without the stream, and log announcements
      Subscription live = dashboard.subscribe(BusNames.activityFilter());
      Subscription logs = dashboard.subscribe(BusNames.logAppendedFilter());
      dashboard.flush(DEADLINE);
      operator.publish(BusNames.activityGlobal("core"), new byte[] {9});
      gateway.publish(BusNames.logAppended("core", controller, "run-1"), new byte[] {7});
      assertThat(live.nextMessage(DEADLINE).getData()).containsExactly(9);
      assertThat(logs.nextMessage(DEADLINE).getData()).containsExactly(7);

      // The user-action audit event, on the core's installation-wide subject
      dashboard.publish(BusNames.activityGlobal("core"), new byte[0]);
      dashboard.flush(DEADLINE);
      assertThat(dashboardErrors).as("permission errors of the dashboard user").isEmpty();
      assertThat(errors).as("permission errors of the operator, gateway and recorder users").isEmpty();
    }
    assertThat(nats.log()).as("nats-server's log").doesNotContainIgnoringCase("violation");
  }

  @Test
  void theDashboardUserWritesNothingButItsAuditEvents() throws Exception {
    try (Connection operator = connect("operator", OPERATOR_PASSWORD, errors);
        Connection recorder = connect("recorder", RECORDER_PASSWORD, errors);
        Connection dashboard = connect("dashboard", DASHBOARD_PASSWORD, dashboardErrors)) {
      BusTopology.ensure(operator);
      BusTopology.ensureClusters(operator);
      BusTopology.ensureActivity(recorder);

      List<String> refused = List.of("$KV." + BusNames.CLUSTERS_BUCKET + ".core", "$KV." + ACCESS_BUCKET + ".policy",
          BusNames.activity("core", "ci", "sandbox"), BusNames.activityGlobal("member-eu1"),
          "$JS.API.STREAM.CREATE.KV_" + ACCESS_BUCKET,
          "$JS.API.CONSUMER.DELETE." + BusNames.ACTIVITY_STREAM + "." + BusNames.ACTIVITY_CONSUMER,
          "$JS.API.CONSUMER.MSG.NEXT." + BusNames.ACTIVITY_STREAM + "." + BusNames.ACTIVITY_CONSUMER);
      for (String subject : refused) {
        dashboard.publish(subject, "forged".getBytes(StandardCharsets.UTF_8));
        await().atMost(DEADLINE).until(() -> dashboardErrors.stream()
            .anyMatch(e -> e.contains("Permissions Violation for Publish to \"" + subject + "\"")));
      }
      // The recorder's durable consumer survived the attempt.
      assertThat(recorder.jetStreamManagement().getConsumerNames(BusNames.ACTIVITY_STREAM))
          .contains(BusNames.ACTIVITY_CONSUMER);
      dashboard.subscribe(BusNames.gatewayCommands("core", "gw-1"));
      await().atMost(DEADLINE).until(() -> dashboardErrors.stream().anyMatch(e ->
          e.contains("Permissions Violation for Subscription to \"" + BusNames.gatewayCommands("core", "gw-1") + "\"")));
      assertThat(errors).as("permission errors of the operator and recorder users").isEmpty();
    }
  }

  private Connection connect(String user, String password, Queue<String> sink) throws Exception {
    return Nats.connect(new Options.Builder().server(nats.value().url()).userInfo(user, password)
        .inboxPrefix(ChartNatsConfig.inboxPrefix(user))
        .connectionTimeout(Duration.ofSeconds(5)).maxReconnects(0)
        .errorListener(new ErrorListener() {
          @Override
          public void errorOccurred(Connection connection, String error) {
            sink.add(error);
          }
        }).build());
  }
}
