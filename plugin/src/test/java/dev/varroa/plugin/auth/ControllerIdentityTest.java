package dev.varroa.plugin.auth;

import static dev.varroa.plugin.auth.OperatorTokenSigner.claims;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.plugin.testing.SteppedClock;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ControllerIdentityTest {

  @TempDir Path dir;

  @Test
  void rendersTheSpiffeUriTheOperatorUsesAsAudience() {
    assertThat(new ControllerIdentity("team-a", "ci.main", "0f1e2d3c-aaaa").uri())
        .isEqualTo("spiffe://varroa.dev/ns/team-a/controller/ci.main/uid/0f1e2d3c-aaaa");
  }

  @Test
  void refusesToStartWithoutControllerIdentity() {
    assertThatThrownBy(() -> ControllerIdentity.fromEnvironment(Map.of(
        ControllerIdentity.NAMESPACE_VARIABLE, "team-a", ControllerIdentity.NAME_VARIABLE, "ci")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("VARROA_CONTROLLER_UID");
  }

  @Test
  void refusesSegmentsThatWouldBreakTheUri() {
    assertThatThrownBy(() -> new ControllerIdentity("team-a", "ci/uid/x", "1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("name");
  }

  @Test
  void buildsVerifierFromEnvironment() {
    Instant now = Instant.parse("2030-01-01T12:00:00Z");
    OperatorTokenSigner operator = OperatorTokenSigner.withNewKey();
    Path keyFile = dir.resolve("jwt.pem");
    OperatorTokenSigner.writeKeyFile(keyFile, operator);

    JenkinsTokenVerifier verifier = JenkinsTokenVerifier.fromEnvironment(Map.of(
        "VARROA_CONTROLLER_NAMESPACE", "team-a",
        "VARROA_CONTROLLER_NAME", "ci",
        "VARROA_CONTROLLER_UID", "0f1e2d3c",
        "VARROA_JWT_PUBLIC_KEY_FILE", keyFile.toString()), new SteppedClock(now));

    assertThat(verifier.audience()).isEqualTo("spiffe://varroa.dev/ns/team-a/controller/ci/uid/0f1e2d3c");
    assertThat(verifier.verify(operator.sign(claims(verifier.audience(), now).build())).accepted()).isTrue();
  }
}
