package dev.varroa.operator.hibernation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.Header;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Secrets the waker keeps, read back as the replayer reads them, and what a replay's outcome means. */
class WakeRequestsTest {
  private static final Instant RECEIVED = Instant.parse("2026-06-01T12:00:00.123Z");

  private static Controller controller() {
    Controller controller = new Controller();
    controller.setMetadata(new ObjectMetaBuilder().withName("nightly").withNamespace("ci")
        .withUid("1b4e28ba-2fa1-11d2-883f-0016d3cca427").build());
    return controller;
  }

  @Test
  void keepsADeliveryByteForByteAndReadsItBackAsTheReplayCommand() {
    byte[] body = {0, 1, (byte) 0xff, '{', '}'};
    KeptDelivery delivery = new KeptDelivery("POST", "/github-webhook/?a=%2F", List.of(
        Header.newBuilder().setName("X-GitHub-Event").setValue("push").build(),
        Header.newBuilder().setName("Accept").setValue("*/*").build(),
        Header.newBuilder().setName("Accept").setValue("text/plain").build()), body, RECEIVED);

    Secret secret = WakeRequests.delivery(controller(), delivery, "a1b2c3");
    KeptDelivery read = KeptDelivery.of(secret);

    assertThat(secret.getMetadata().getName()).isEqualTo("nightly-1b4e28ba-delivery-20260601-120000123-a1b2c3");
    assertThat(secret.getType()).isEqualTo(WakeRequests.SECRET_TYPE);
    assertThat(secret.getMetadata().getLabels()).containsEntry(WakeRequests.KIND_LABEL, WakeRequests.DELIVERY)
        .containsEntry("varroa.dev/controller", "nightly");
    assertThat(secret.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(o -> assertThat(o.getUid()).isEqualTo("1b4e28ba-2fa1-11d2-883f-0016d3cca427"));
    assertThat(read.body()).isEqualTo(body);
    assertThat(read.path()).isEqualTo("/github-webhook/?a=%2F");
    assertThat(read.receivedAt()).isEqualTo(RECEIVED);
    assertThat(read.replay().getHeadersList()).extracting(h -> h.getName() + ": " + h.getValue())
        .containsExactly("X-GitHub-Event: push", "Accept: */*", "Accept: text/plain");
    assertThat(read.replay().getBody().toByteArray()).isEqualTo(body);
  }

  @Test
  void replaysOnlyAPostAtAWebhookRoute() {
    assertThat(new KeptDelivery("POST", "/github-webhook/?x=1", List.of(), new byte[0], RECEIVED).replayable()).isTrue();
    assertThat(new KeptDelivery("POST", "/git/notifyCommit?url=https://git.example.com/app.git", List.of(),
        new byte[0], RECEIVED).replayable()).isTrue();
    assertThat(new KeptDelivery("POST", "/scriptText?script=x", List.of(), new byte[0], RECEIVED).replayable())
        .as("kept before the upgrade, or written by hand").isFalse();
    assertThat(new KeptDelivery("PUT", "/github-webhook/", List.of(), new byte[0], RECEIVED).replayable()).isFalse();
  }

  @Test
  void namesTheSecretAndTheKeyOfADeliveryItCannotRead() {
    Secret broken = new SecretBuilder().withNewMetadata().withName("stray").withNamespace("ci").endMetadata()
        .withData(Map.of("method", "UE9TVA==")).build();

    assertThatThrownBy(() -> KeptDelivery.of(broken)).hasMessageContaining("Secret ci/stray has no key");
  }

  @Test
  void keepsOneVisitPerControllerAndOrdersDeliveriesOldestFirst() {
    Secret visit = WakeRequests.visit(controller(), RECEIVED);
    Secret later = WakeRequests.delivery(controller(), new KeptDelivery("POST", "/b", List.of(), new byte[0],
        RECEIVED.plusMillis(1)), "000002");
    Secret earlier = WakeRequests.delivery(controller(), new KeptDelivery("POST", "/a", List.of(), new byte[0],
        RECEIVED), "000001");

    assertThat(visit.getMetadata().getName()).isEqualTo("nightly-1b4e28ba-wake-visit");
    assertThat(WakeRequests.kind(visit)).contains(WakeRequests.VISIT);
    assertThat(WakeRequests.oldestFirst(List.of(later, earlier))).extracting(s -> s.getMetadata().getName())
        .containsExactly(earlier.getMetadata().getName(), later.getMetadata().getName());
  }

  @Test
  void dropsWhatJenkinsRefusesForGoodAndRetriesTheRest() {
    assertThat(DeliveryReplayer.verdict(result(CommandResult.Outcome.SUCCEEDED, 200)))
        .isEqualTo(DeliveryReplayer.Verdict.REPLAYED);
    assertThat(DeliveryReplayer.verdict(result(CommandResult.Outcome.FAILED, 403)))
        .isEqualTo(DeliveryReplayer.Verdict.REFUSED);
    assertThat(DeliveryReplayer.verdict(result(CommandResult.Outcome.FAILED, 404)))
        .isEqualTo(DeliveryReplayer.Verdict.REFUSED);
    assertThat(DeliveryReplayer.verdict(result(CommandResult.Outcome.REJECTED, 0)))
        .isEqualTo(DeliveryReplayer.Verdict.REFUSED);
    assertThat(DeliveryReplayer.verdict(result(CommandResult.Outcome.FAILED, 429)))
        .isEqualTo(DeliveryReplayer.Verdict.RETRY);
    assertThat(DeliveryReplayer.verdict(result(CommandResult.Outcome.FAILED, 503)))
        .isEqualTo(DeliveryReplayer.Verdict.RETRY);
    assertThat(DeliveryReplayer.verdict(result(CommandResult.Outcome.FAILED, 0)))
        .as("Jenkins not listening yet").isEqualTo(DeliveryReplayer.Verdict.RETRY);
    assertThat(DeliveryReplayer.verdict(result(CommandResult.Outcome.NOT_CONNECTED, 0)))
        .isEqualTo(DeliveryReplayer.Verdict.RETRY);
    assertThat(DeliveryReplayer.verdict(result(CommandResult.Outcome.DEADLINE_EXCEEDED, 0)))
        .isEqualTo(DeliveryReplayer.Verdict.RETRY);
  }

  private static CommandResult result(CommandResult.Outcome outcome, int status) {
    return CommandResult.newBuilder().setOutcome(outcome).setJenkinsStatus(status)
        .setMessage(new String(new byte[] {'x'}, StandardCharsets.UTF_8)).build();
  }
}
