package dev.varroa.operator.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.operator.cluster.ClusterRole;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.bus.v1.ActionRequest;
import dev.varroa.protocol.bus.v1.ActionResult;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.nats.client.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The operator's side of an action on a real API server and NATS: the core refuses a drain, a bad request is named,
 * a request id is answered once and replayed after that, the ledger keeps the newest answers only, and a drain with
 * nothing to delete ends Drained.
 */
@WithKubeApiServer
class ClusterActionResponderIT {

  private static final Duration DEADLINE = Duration.ofSeconds(30);

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  @Test
  void theCoreClusterRefusesToBeDrainedAndNothingIsRemembered(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    namespace(client, "core-ledger");
    ActionLedger ledger = new ActionLedger(client, "core-ledger", Clock.systemUTC());
    try (Connection nats = NATS.server().connect();
        ClusterDrain drain = new ClusterDrain(client, ledger, ActivityPublisher.withoutBus("core", "operator"), () -> {});
        ClusterActionResponder responder = new ClusterActionResponder(nats, "core", ClusterRole.CORE, ledger, drain,
            ActivityPublisher.withoutBus("core", "operator"),
            new BroodOperationActions(client, "core"))) {
      responder.start();
      String id = UUID.randomUUID().toString();
      ActionResult result = ask(nats, "core", request(id, "drain", "core"));

      assertThat(result.getOutcome()).isEqualTo("refused");
      assertThat(result.getMessage()).contains("cluster core is the core cluster").contains("drain member clusters");
      assertThat(ledger.answered(id)).isEmpty();
      assertThat(ledger.drain().state()).isEqualTo(DrainState.NONE);
    }
  }

  @Test
  void namesABadRequestIdVerbOrCluster(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    namespace(client, "bad-ledger");
    ActionLedger ledger = new ActionLedger(client, "bad-ledger", Clock.systemUTC());
    ClusterDrain drain = new ClusterDrain(client, ledger, ActivityPublisher.withoutBus("west", "operator"), () -> {});
    ClusterActionResponder responder = new ClusterActionResponder(null, "west", ClusterRole.MEMBER, ledger, drain,
        ActivityPublisher.withoutBus("west", "operator"), new BroodOperationActions(client, "west"));

    assertThat(responder.act(request("42", "drain", "west")).getMessage()).contains("request_id '42' is not a UUID");
    assertThat(responder.act(request(UUID.randomUUID().toString(), "scale", "west")).getMessage())
        .contains("verb 'scale'").contains("drain or cancel-drain");
    assertThat(responder.act(request(UUID.randomUUID().toString(), "drain", "east")).getMessage())
        .contains("names cluster 'east' but reached cluster west");
    drain.close();
  }

  @Test
  void answersARequestIdOnceReplaysItAndADrainOfNothingEndsDrained(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    namespace(client, "member-ledger");
    ActionLedger ledger = new ActionLedger(client, "member-ledger", Clock.systemUTC());
    // the API server is shared by the class: only this test's namespace may hold Controllers, and it holds none
    assertThat(client.resources(Controller.class).inAnyNamespace().list().getItems()).isEmpty();
    try (ClusterDrain drain = new ClusterDrain(client, ledger, ActivityPublisher.withoutBus("west", "operator"),
        () -> {})) {
      ClusterActionResponder responder = new ClusterActionResponder(null, "west", ClusterRole.MEMBER, ledger, drain,
          ActivityPublisher.withoutBus("west", "operator"), new BroodOperationActions(client, "west"));
      String id = UUID.randomUUID().toString();
      ActionResult first = responder.act(request(id, "drain", "west").toBuilder().setUser("alice").build());
      assertThat(first.getOutcome()).isEqualTo("accepted");
      assertThat(first.getReplayed()).isFalse();
      assertThat(ledger.drain()).isEqualTo(new ActionLedger.Drain(DrainState.DRAINING, "alice"));

      drain.start();
      await().atMost(DEADLINE).until(() -> ledger.drain().state() == DrainState.DRAINED);
      ActionResult again = responder.act(request(id, "drain", "west"));
      assertThat(again.getReplayed()).isTrue();
      assertThat(again.getOutcome()).isEqualTo("accepted");
      assertThat(ledger.drain().state()).as("a replay runs nothing").isEqualTo(DrainState.DRAINED);
      ActionResult cancel = responder.act(request(UUID.randomUUID().toString(), "cancel-drain", "west"));
      assertThat(cancel.getOutcome()).isEqualTo("refused");
      assertThat(cancel.getMessage()).contains("is not draining (state Drained)");
    }
  }

  @Test
  void theLedgerKeepsTheNewestAnswersOnly(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    namespace(client, "trim-ledger");
    ActionLedger ledger = new ActionLedger(client, "trim-ledger", Clock.systemUTC());
    ledger.setDrain(DrainState.CANCELLED, "bob");
    String oldest = UUID.randomUUID().toString();
    ledger.remember(ActionResult.newBuilder().setRequestId(oldest).setOutcome("done").build());
    String newest = null;
    for (int i = 0; i < ActionLedger.REMEMBERED_REQUESTS; i++) {
      newest = UUID.randomUUID().toString();
      ledger.remember(ActionResult.newBuilder().setRequestId(newest).setOutcome("done").build());
    }

    assertThat(ledger.answered(oldest)).isEmpty();
    assertThat(ledger.answered(newest)).map(ActionResult::getOutcome).contains("done");
    assertThat(ledger.drain()).isEqualTo(new ActionLedger.Drain(DrainState.CANCELLED, "bob"));
  }

  private static ActionRequest request(String id, String verb, String cluster) {
    return ActionRequest.newBuilder().setRequestId(id).setVerb(verb).setCluster(cluster).build();
  }

  private static ActionResult ask(Connection nats, String cluster, ActionRequest request) throws Exception {
    return ActionResult.parseFrom(nats.request(BusNames.clusterActions(cluster), request.toByteArray(), DEADLINE)
        .getData());
  }

  private static void namespace(KubernetesClient client, String name) {
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
  }
}
