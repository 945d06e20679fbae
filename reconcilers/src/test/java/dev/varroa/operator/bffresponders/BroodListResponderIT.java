package dev.varroa.operator.bffresponders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.api.v1alpha1.BroodOperation;
import dev.varroa.api.v1alpha1.BroodOperationStatus;
import dev.varroa.api.v1alpha1.BroodSchedule;
import dev.varroa.api.v1alpha1.BroodScheduleStatus;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.BroodOperationRow;
import dev.varroa.protocol.bus.v1.BroodOperationRows;
import dev.varroa.protocol.bus.v1.BroodOperationsRequest;
import dev.varroa.protocol.bus.v1.BroodScheduleRows;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.RequestCounter;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.nats.client.Connection;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The brood rows a BFF asks a cluster's operator for, on a real API server and a real NATS: every BroodOperation with
 * its summary and whole object, one by namespace and name, every BroodSchedule, a status change seen without asking,
 * and no call to the API server per request (the answers come from the informers).
 */
@WithKubeApiServer
class BroodListResponderIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final Duration ANSWER = Duration.ofSeconds(5);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void answersWithEveryOperationAndScheduleFromItsCaches(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    for (String namespace : List.of("brood-a", "brood-b")) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
          .create();
    }
    BroodOperation wave = client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: BroodOperation
        metadata: {name: wave, namespace: brood-a}
        spec:
          targets: {namespaces: [brood-a]}
          steps: [{type: quietDown}, {type: reprovision}]
        """, BroodOperation.class)).create();
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: BroodOperation
        metadata: {name: nightly-1, namespace: brood-b, labels: {varroa.dev/brood-schedule: nightly}}
        spec:
          targets: {clusters: ["*"]}
          steps: [{type: backup}]
          dryRun: true
        """, BroodOperation.class)).create();
    BroodSchedule nightly = client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: BroodSchedule
        metadata: {name: nightly, namespace: brood-b}
        spec:
          schedule: "@daily"
          timeZone: Europe/Berlin
          concurrencyPolicy: Replace
          suspend: true
          template: {spec: {targets: {clusters: ["*"]}, steps: [{type: backup}]}}
        """, BroodSchedule.class)).create();
    BroodScheduleStatus scheduleStatus = new BroodScheduleStatus();
    scheduleStatus.lastResult = "Skipped";
    scheduleStatus.message = "the last run still runs (concurrencyPolicy Forbid)";
    scheduleStatus.active = List.of("nightly-1");
    nightly.setStatus(scheduleStatus);
    client.resource(nightly).updateStatus();

    RequestCounter counter = new RequestCounter();
    try (KubernetesClient counted = counter.client(kube);
        Connection operatorBus = NATS.server().connect(); Connection bff = NATS.server().connect();
        BroodListResponder responder = BroodListResponder.informing(counted, operatorBus, "eu-1")) {
      responder.start();
      operatorBus.flush(DEADLINE);
      BroodOperationRows all = await().atMost(DEADLINE).until(() -> operations(bff, BroodOperationsRequest
          .getDefaultInstance()), rows -> rows.getRowsCount() == 2);
      // from here on every answer must come from the informers: the client of the responder lists and gets nothing
      counter.reset();
      assertThat(all.getCluster()).isEqualTo("eu-1");
      assertThat(all.getRowsList()).extracting(r -> r.getNamespace() + "/" + r.getName())
          .containsExactly("brood-a/wave", "brood-b/nightly-1");
      BroodOperationRow pending = all.getRows(0);
      assertThat(pending.getPhase()).as("no status yet").isEmpty();
      assertThat(pending.getStepsList()).containsExactly("quietDown", "reprovision");
      assertThat(pending.getSchedule()).isEmpty();
      BroodOperationRow scheduled = all.getRows(1);
      assertThat(scheduled.getSchedule()).isEqualTo("nightly");
      assertThat(scheduled.getDryRun()).isTrue();
      JsonNode object = JSON.readTree(scheduled.getObjectJson());
      assertThat(object.path("metadata").path("name").asText()).isEqualTo("nightly-1");
      assertThat(object.path("spec").path("targets").path("clusters").get(0).asText()).isEqualTo("*");

      // the engine writes a status: the next answer carries it, from the informer
      BroodOperationStatus status = new BroodOperationStatus();
      status.phase = BroodOperationStatus.Phase.Paused;
      status.message = "paused by spec.suspend";
      status.startedAt = "2026-12-04T20:00:00Z";
      status.steps = List.of("quietDown", "reprovision");
      status.counts = new BroodOperationStatus.Counts();
      status.counts.total = 3;
      status.counts.succeeded = 1;
      status.counts.paused = 2;
      wave.setStatus(status);
      client.resource(wave).updateStatus();
      BroodOperationRows one = await().atMost(DEADLINE).until(() -> operations(bff, BroodOperationsRequest
          .newBuilder().setNamespace("brood-a").setName("wave").build()),
          rows -> rows.getRowsCount() == 1 && rows.getRows(0).getPhase().equals("Paused"));
      BroodOperationRow paused = one.getRows(0);
      assertThat(paused.getMessage()).isEqualTo("paused by spec.suspend");
      assertThat(paused.getStartedAt()).isEqualTo("2026-12-04T20:00:00Z");
      assertThat(paused.getTotal()).isEqualTo(3);
      assertThat(paused.getSucceeded()).isEqualTo(1);
      assertThat(paused.getPaused()).isEqualTo(2);
      assertThat(paused.getFailed()).isZero();
      assertThat(operations(bff, BroodOperationsRequest.newBuilder().setNamespace("brood-a").setName("nothing")
          .build()).getRowsCount()).isZero();

      BroodScheduleRows schedules = BroodScheduleRows.parseFrom(bff.request(BusNames.clusterBroodSchedules("eu-1"),
          new byte[0], ANSWER).getData());
      assertThat(schedules.getRowsCount()).isEqualTo(1);
      var row = schedules.getRows(0);
      assertThat(row.getName()).isEqualTo("nightly");
      assertThat(row.getSchedule()).isEqualTo("@daily");
      assertThat(row.getTimeZone()).isEqualTo("Europe/Berlin");
      assertThat(row.getConcurrencyPolicy()).isEqualTo("Replace");
      assertThat(row.getSuspend()).isTrue();
      assertThat(row.getLastResult()).isEqualTo("Skipped");
      assertThat(row.getMessage()).contains("concurrencyPolicy Forbid");
      assertThat(row.getActiveList()).containsExactly("nightly-1");

      assertThat(counter.of(RequestCounter.Kind.LIST)).isEmpty();
      assertThat(counter.of(RequestCounter.Kind.GET)).isEmpty();
    }
  }

  private static BroodOperationRows operations(Connection bff, BroodOperationsRequest request) throws Exception {
    return BroodOperationRows.parseFrom(bff.request(BusNames.clusterBroodOperations("eu-1"), request.toByteArray(),
        ANSWER).getData());
  }
}
