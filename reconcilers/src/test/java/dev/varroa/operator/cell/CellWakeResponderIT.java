package dev.varroa.operator.cell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerAnnotations;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.TeamStatus;
import dev.varroa.recorder.CellWakes;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.nats.client.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The cell wake end to end on a real API server and NATS: the recorder's sender asks cluster west's operator, which
 * annotates the Hibernated cell hosting the team, leaves an awake cell alone, and refuses an unplaced or unknown team
 * with the reason.
 */
@WithKubeApiServer
class CellWakeResponderIT {
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final String NS = "cell-wakes";
  private static final Instant NOW = Instant.parse("2026-06-01T09:30:00Z");
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private static Connection operatorSide;
  private static Connection recorderSide;
  private static CellWakeResponder responder;
  private static CellWakes wakes;

  @BeforeAll
  static void startResponder(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build())
        .create();
    cell(client, "shared-0", ControllerStatus.Phase.Hibernated);
    cell(client, "shared-1", ControllerStatus.Phase.Connected);
    team(client, "alpha", "shared-0", null);
    team(client, "gamma", "shared-1", null);
    team(client, "beta", null, "every cell of CellPool shared is full: raise spec.replicas");
    team(client, "orphan", "shared-7", null);
    operatorSide = NATS.server().connect();
    recorderSide = NATS.server().connect();
    responder = new CellWakeResponder(client, operatorSide, "west", Clock.fixed(NOW, ZoneOffset.UTC));
    responder.start();
    operatorSide.flush(Duration.ofSeconds(5));
    wakes = new CellWakes(() -> recorderSide, Duration.ofSeconds(10));
  }

  @AfterAll
  static void stop() throws Exception {
    if (responder != null) {
      responder.close();
    }
    if (operatorSide != null) {
      operatorSide.close();
    }
    if (recorderSide != null) {
      recorderSide.close();
    }
  }

  @Test
  void aTeamOnAHibernatedCellGetsItsCellAnnotated(KubeApiServer kube) {
    CellWakes.Result result = wakes.wake("west", NS, "alpha", "build requested for alpha/app");

    assertThat(result.outcome()).as(result.message()).isEqualTo(CellWakes.Outcome.WOKEN);
    assertThat(result.cell()).isEqualTo("shared-0");
    assertThat(result.phaseBefore()).isEqualTo("Hibernated");
    Controller cell = kube.client().resources(Controller.class).inNamespace(NS).withName("shared-0").get();
    assertThat(cell.getMetadata().getAnnotations()).containsEntry(ControllerAnnotations.WAKE, NOW.toString());
  }

  @Test
  void aTeamOnAnAwakeCellLeavesItAlone(KubeApiServer kube) {
    CellWakes.Result result = wakes.wake("west", NS, "gamma", "build requested for gamma/app");

    assertThat(result.outcome()).isEqualTo(CellWakes.Outcome.NOT_PARKED);
    assertThat(result.phaseBefore()).isEqualTo("Connected");
    Controller cell = kube.client().resources(Controller.class).inNamespace(NS).withName("shared-1").get();
    assertThat(cell.getMetadata().getAnnotations()).doesNotContainKey(ControllerAnnotations.WAKE);
  }

  @Test
  void anUnplacedTeamIsRefusedWithTheReason() {
    CellWakes.Result result = wakes.wake("west", NS, "beta", "build requested for beta/app");

    assertThat(result.outcome()).isEqualTo(CellWakes.Outcome.REFUSED);
    assertThat(result.cell()).isEmpty();
    assertThat(result.message()).contains("not placed").contains("Team " + NS + "/beta")
        .contains("every cell of CellPool shared is full");
  }

  @Test
  void anUnknownTeamIsRefusedWithTheReason() {
    CellWakes.Result result = wakes.wake("west", NS, "nobody", "build requested for nobody/app");

    assertThat(result.outcome()).isEqualTo(CellWakes.Outcome.REFUSED);
    assertThat(result.message()).contains("unknown team").contains("Team " + NS + "/nobody")
        .contains("cluster west");
  }

  @Test
  void aTeamWhoseCellIsGoneIsRefusedNamingTheCell() {
    CellWakes.Result result = wakes.wake("west", NS, "orphan", "build requested for orphan/app");

    assertThat(result.outcome()).isEqualTo(CellWakes.Outcome.REFUSED);
    assertThat(result.message()).contains("no Controller " + NS + "/shared-7 exists");
  }

  @Test
  void aClusterWhoseOperatorDoesNotAnswerIsSaidSo() {
    CellWakes.Result result = wakes.wake("east", NS, "alpha", "build requested for alpha/app");

    assertThat(result.outcome()).isEqualTo(CellWakes.Outcome.UNANSWERED);
    assertThat(result.message()).contains("no operator of cluster east answers varroa.clusters.east.cell-wake");
  }

  private static void cell(KubernetesClient client, String name, ControllerStatus.Phase phase) {
    Controller controller = YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: %s, namespace: %s, labels: {varroa.dev/cell-pool: shared}}
        spec: {}
        """.formatted(name, NS), Controller.class);
    Controller created = client.resource(controller).create();
    ControllerStatus status = new ControllerStatus();
    status.phase = phase;
    created.setStatus(status);
    client.resource(created).updateStatus();
  }

  private static void team(KubernetesClient client, String name, String cell, String pendingBecause) {
    Team team = YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Team
        metadata: {name: %s, namespace: %s}
        spec: {pool: shared}
        """.formatted(name, NS), Team.class);
    Team created = client.resource(team).create();
    TeamStatus status = new TeamStatus();
    status.phase = cell == null ? TeamStatus.Phase.Pending : TeamStatus.Phase.Placed;
    status.cell = cell;
    status.placedSince = cell == null ? null : NOW.minus(Duration.ofDays(1)).toString();
    status.message = pendingBecause;
    created.setStatus(status);
    client.resource(created).updateStatus();
  }
}
