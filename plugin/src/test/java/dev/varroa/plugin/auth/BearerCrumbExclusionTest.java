package dev.varroa.plugin.auth;

import static dev.varroa.plugin.auth.JenkinsTokenVerifierTest.NOW;
import static dev.varroa.plugin.auth.JenkinsTokenVerifierTest.THIS_CONTROLLER;
import static dev.varroa.plugin.auth.OperatorTokenSigner.claims;
import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.plugin.testing.SteppedClock;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BearerCrumbExclusionTest {

  @TempDir Path dir;
  final SteppedClock clock = new SteppedClock(NOW);
  final OperatorTokenSigner operator = OperatorTokenSigner.withNewKey();
  BearerCrumbExclusion exclusion;

  @BeforeEach
  void trustOperatorKey() {
    Path keyFile = dir.resolve("public.pem");
    OperatorTokenSigner.writeKeyFile(keyFile, operator);
    exclusion = new BearerCrumbExclusion(
        new JenkinsTokenVerifier(new PublicKeyRing(keyFile, clock), THIS_CONTROLLER, clock));
  }

  @Test
  void csrfExclusionOnlyAfterSignatureChecks() {
    String valid = operator.sign(claims(THIS_CONTROLLER.uri(), NOW).build());
    String forged = OperatorTokenSigner.withNewKey().sign(claims(THIS_CONTROLLER.uri(), NOW).build(), operator.kid());

    assertThat(exclusion.exempts("Bearer " + valid)).isTrue();
    assertThat(exclusion.exempts("Bearer " + forged)).isFalse();
  }

  @Test
  void noExclusionForTokenThatFailsAnyOtherCheck() {
    String expired = operator.sign(claims(THIS_CONTROLLER.uri(), NOW).build());
    clock.advance(Duration.ofHours(2));

    assertThat(exclusion.exempts("Bearer " + expired)).isFalse();
    assertThat(exclusion.exempts("Bearer not-a-jwt")).isFalse();
  }

  @Test
  void noExclusionWithoutBearerHeader() {
    assertThat(exclusion.exempts(null)).isFalse();
    assertThat(exclusion.exempts("")).isFalse();
    assertThat(exclusion.exempts("Basic dXNlcjpwYXNz")).isFalse();
  }
}
