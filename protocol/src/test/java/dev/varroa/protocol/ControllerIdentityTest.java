package dev.varroa.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ControllerIdentityTest {

  @Test
  void roundTripsThroughItsUri() {
    ControllerIdentity id = new ControllerIdentity("team-a", "ci.main", "0f1e2d3c-aaaa-bbbb-cccc-000000000001");
    assertThat(id.toString())
        .isEqualTo("spiffe://varroa.dev/ns/team-a/controller/ci.main/uid/0f1e2d3c-aaaa-bbbb-cccc-000000000001");
    assertThat(ControllerIdentity.parse(id.toString())).isEqualTo(id);
    assertThat(ControllerIdentity.of(id.toRef())).isEqualTo(id);
  }

  @Test
  void refusesAnotherTrustDomain() {
    assertThatThrownBy(() -> ControllerIdentity.parse("spiffe://example.com/ns/a/controller/b/uid/c"))
        .hasMessageContaining("not a Varroa controller identity");
  }

  @Test
  void routeKeySplitsAtTheFirstDotBecauseNamespacesHaveNone() {
    assertThat(new ControllerIdentity("team-a", "ci.main", "u").routeKey()).isEqualTo("team-a.ci.main");
    assertThat(BusNames.queuedCommands("core", new ControllerIdentity("team-a", "ci", "u")))
        .isEqualTo("varroa.commands.core.team-a.ci");
  }

  @Test
  void negotiatesTheLowerVersion() {
    assertThat(ProtocolVersion.negotiated(ProtocolVersion.CURRENT + 3)).isEqualTo(ProtocolVersion.CURRENT);
    assertThat(ProtocolVersion.supported(0)).isFalse();
  }

  @Test
  void storesTokensOnlyAsDigest() {
    assertThat(TokenDigest.of("secret")).hasSize(64).doesNotContain("secret");
  }
}
