package dev.varroa.operator.hibernation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.api.v1alpha1.HibernationStatus;
import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The waker's doors against a real API server: what it keeps is what the API server holds afterwards. Only a parked
 * Controller is answered, only its webhook routes are kept, and the cluster's kept bytes stay under the cap.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WakerIT {
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final String NAMESPACE = "waker-doors";
  /** The smallest cap the settings allow: one delivery of 400 KiB fits, two do not. */
  private static final long CAP = WakerServer.MAX_DELIVERY_BYTES;
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private KubernetesClient client;
  private Controller parked;
  private Controller second;
  private Controller running;
  private Waker waker;

  @BeforeAll
  void start(KubeApiServer kube) throws Exception {
    client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    parked = withPhase(create("parked"), ControllerStatus.Phase.Hibernated);
    second = withPhase(create("second"), ControllerStatus.Phase.Hibernated);
    running = withPhase(create("running"), ControllerStatus.Phase.Connected);
    // started after the statuses are written: its informers list them before it answers
    waker = Waker.start(client, 0, new HibernationSettings(0, Optional.empty(), CAP, 1000), new MovableClock());
  }

  @AfterAll
  void stop() {
    if (waker != null) {
      waker.close();
    }
  }

  @Test
  void answers404ToAHostNoControllerHasAndKeepsNothing() throws Exception {
    int before = wakeRequests().size();

    String answer = http("POST", "nobody." + NAMESPACE + ".svc", "/github-webhook/", new byte[] {'{', '}'});

    assertThat(answer).startsWith("HTTP/1.1 404");
    assertThat(wakeRequests()).hasSize(before);
  }

  @Test
  void answers404ToARunningControllerAndKeepsNothing() throws Exception {
    String host = WakeRequests.statefulSet(running) + "." + NAMESPACE + ".svc:8080";

    assertThat(http("POST", host, "/github-webhook/", new byte[] {'{', '}'})).startsWith("HTTP/1.1 404");
    assertThat(http("GET", host, "/", new byte[0])).startsWith("HTTP/1.1 404");

    assertThat(wakeRequests(running)).isEmpty();
  }

  @Test
  void wakesAParkedControllerOnAPostElsewhereWithoutKeepingIt() throws Exception {
    String host = WakeRequests.statefulSet(parked) + "." + NAMESPACE + ".svc";

    String answer = http("POST", host, "/job/app/build", "json=%7B%7D".getBytes(StandardCharsets.UTF_8),
        "Authorization", "Basic YWRtaW46c2VjcmV0");

    assertThat(answer).startsWith("HTTP/1.1 503").contains("not kept");
    List<Secret> kept = await().atMost(DEADLINE).until(() -> wakeRequests(parked), list -> !list.isEmpty());
    assertThat(kept).extracting(s -> s.getMetadata().getLabels().get(WakeRequests.KIND_LABEL))
        .as("a visit wakes it; no delivery holds the request").containsOnly(WakeRequests.VISIT);
  }

  @Test
  void refusesWith507WhatWouldPutTheClustersKeptBytesOverTheCap() throws Exception {
    byte[] large = new byte[400 * 1024];

    String first = http("POST", WakeRequests.statefulSet(second) + "." + NAMESPACE, "/github-webhook/", large);
    String over = http("POST", WakeRequests.statefulSet(parked) + "." + NAMESPACE, "/github-webhook/", large);

    assertThat(first).startsWith("HTTP/1.1 202");
    assertThat(over).startsWith("HTTP/1.1 507").contains("cap of " + CAP + " bytes");
    assertThat(client.secrets().inAnyNamespace().withLabel(WakeRequests.KIND_LABEL, WakeRequests.DELIVERY).list()
        .getItems()).singleElement().satisfies(s -> assertThat(s.getMetadata().getLabels())
            .containsEntry(ControllerLabels.CONTROLLER, "second"));
  }

  private Controller create(String name) {
    return client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: %s, namespace: %s}
        spec: {hibernation: {idleMinutes: 30}}
        """.formatted(name, NAMESPACE), Controller.class)).create();
  }

  private Controller withPhase(Controller controller, ControllerStatus.Phase phase) {
    controller.setStatus(new ControllerStatus());
    controller.getStatus().phase = phase;
    if (phase == ControllerStatus.Phase.Hibernated) {
      controller.getStatus().hibernation = new HibernationStatus();
      controller.getStatus().hibernation.since = "2026-06-01T12:00:00Z";
    }
    return client.resource(controller).updateStatus();
  }

  private List<Secret> wakeRequests() {
    return client.secrets().inAnyNamespace().withLabel(WakeRequests.KIND_LABEL).list().getItems();
  }

  private List<Secret> wakeRequests(Controller controller) {
    return client.secrets().inNamespace(NAMESPACE).withLabel(WakeRequests.KIND_LABEL)
        .withLabel(ControllerLabels.CONTROLLER, controller.getMetadata().getName()).list().getItems();
  }

  private String http(String method, String host, String path, byte[] body, String... headers) throws IOException {
    return WakerRequest.send(waker.port(), method, host, path, body, headers);
  }
}
