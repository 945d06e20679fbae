package dev.varroa.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.operator.channel.BootstrapTokenIssuer;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.BootstrapTokenRecord;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MiteTokenSecretTest {
  private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
  private static final ControllerIdentity ID = new ControllerIdentity("team-a", "ci", "uid-1");
  private static final Secret EXISTING = MiteTokenSecret.render(ID, "ci-uid1-mite-token",
      new BootstrapTokenIssuer.Minted("tok", "digest-1", NOW.plusSeconds(600)), "ci");

  @Test
  void mintsTheFirstToken() {
    assertThat(MiteTokenSecret.reasonToMint(null, Optional.empty(), false, null, NOW)).contains("no_token_yet");
  }

  @Test
  void mintsNothingWhileTheMiteIsConnected() {
    assertThat(MiteTokenSecret.reasonToMint(null, Optional.empty(), true, null, NOW)).isEmpty();
  }

  @Test
  void keepsAnUnusedTokenUntilItExpires() {
    assertThat(MiteTokenSecret.reasonToMint(EXISTING, Optional.of(record(false, 0, NOW.plusSeconds(1))), false, null, NOW))
        .isEmpty();
    assertThat(MiteTokenSecret.reasonToMint(EXISTING, Optional.of(record(false, 0, NOW.minusSeconds(1))), false, null, NOW))
        .contains("token_expired_unused");
  }

  @Test
  void mintsForAPodRecreatedInTheSecondOfTheRegistrationUnlessItsMiteIsConnected() {
    Instant usedAt = NOW.minusSeconds(3600).plusMillis(15);
    BootstrapTokenRecord used = record(true, usedAt.toEpochMilli(), usedAt.plusSeconds(900));
    // the API server keeps whole seconds: the recreated pod's creationTimestamp is the registration's second
    Pod sameSecond = pod(usedAt.truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    assertThat(MiteTokenSecret.reasonToMint(EXISTING, Optional.of(used), false, sameSecond, false, NOW))
        .contains("new_pod");
    assertThat(MiteTokenSecret.reasonToMint(EXISTING, Optional.of(used), false, sameSecond, true, NOW)).isEmpty();
    assertThat(MiteTokenSecret.reasonToMint(EXISTING, Optional.of(used), false,
        pod(usedAt.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).minusSeconds(1)), false, NOW)).isEmpty();
  }

  @Test
  void mintsForANewPodButNotForAContainerRestartInTheSamePod() {
    Instant usedAt = NOW.minusSeconds(3600);
    BootstrapTokenRecord used = record(true, usedAt.toEpochMilli(), usedAt.plusSeconds(900));
    assertThat(MiteTokenSecret.reasonToMint(EXISTING, Optional.of(used), false, pod(usedAt.minusSeconds(30)), NOW))
        .isEmpty();
    assertThat(MiteTokenSecret.reasonToMint(EXISTING, Optional.of(used), false, pod(usedAt.plusSeconds(30)), NOW))
        .contains("new_pod");
  }

  @Test
  void mintsWhenTheRecordAgedOut() {
    assertThat(MiteTokenSecret.reasonToMint(EXISTING, Optional.empty(), false, null, NOW)).contains("token_record_gone");
  }

  @Test
  void secretHoldsTheTokenAndAnnotationsOnlyItsDigestAndExpiry() {
    assertThat(new String(Base64.getDecoder().decode(EXISTING.getData().get("token")))).isEqualTo("tok");
    assertThat(EXISTING.getMetadata().getAnnotations()).containsEntry(MiteTokenSecret.DIGEST_ANNOTATION, "digest-1")
        .doesNotContainValue("tok");
    assertThat(MiteTokenSecret.expiresAt(EXISTING)).contains(NOW.plusSeconds(600));
  }

  private static BootstrapTokenRecord record(boolean used, long usedAt, Instant expires) {
    return BootstrapTokenRecord.newBuilder().setController(ID.toRef()).setUsed(used).setUsedAtEpochMillis(usedAt)
        .setExpiresAtEpochMillis(expires.toEpochMilli()).build();
  }

  private static Pod pod(Instant created) {
    return new PodBuilder().withNewMetadata().withName("ci-uid1-0").withCreationTimestamp(created.toString())
        .endMetadata().build();
  }
}
