package dev.varroa.operator.channel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.plugin.auth.JenkinsTokenVerifier;
import dev.varroa.plugin.auth.PublicKeyRing;
import dev.varroa.plugin.auth.RefusalReason;
import dev.varroa.plugin.auth.TokenVerification;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.mite.v1.JenkinsToken;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JenkinsTokenIssuerTest {
  private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
  private static final ControllerIdentity TEAM_A = new ControllerIdentity("team-a", "ci", "1b4e28ba-2fa1-11d2-883f-0016d3cca427");

  @TempDir Path dir;

  @Test
  void mintsTokensTheVarroaSecurityRealmAcceptsForThatControllerOnly() throws Exception {
    JenkinsTokenIssuer issuer = JenkinsTokenIssuer.generate();
    Path key = Files.writeString(dir.resolve("public.pem"), issuer.publicKeyPem());
    JenkinsToken token = issuer.issue(TEAM_A, NOW);

    TokenVerification mine = verifier(key, TEAM_A, NOW.plusSeconds(60)).verify(token.getJwt());
    TokenVerification other = verifier(key, new ControllerIdentity("team-b", "ci", TEAM_A.uid()), NOW.plusSeconds(60))
        .verify(token.getJwt());
    TokenVerification late = verifier(key, TEAM_A, NOW.plus(JenkinsTokenIssuer.TOKEN_LIFETIME).plusSeconds(120))
        .verify(token.getJwt());

    assertThat(mine.accepted()).isTrue();
    assertThat(other).isInstanceOfSatisfying(TokenVerification.Refused.class,
        r -> assertThat(r.reason()).isEqualTo(RefusalReason.WRONG_AUDIENCE));
    assertThat(late).isInstanceOfSatisfying(TokenVerification.Refused.class,
        r -> assertThat(r.reason()).isEqualTo(RefusalReason.EXPIRED));
    assertThat(token.getExpiresAtEpochMillis()).isEqualTo(NOW.plus(JenkinsTokenIssuer.TOKEN_LIFETIME).toEpochMilli());
  }

  @Test
  void readsBackTheKeyItWrites() throws Exception {
    JenkinsTokenIssuer issuer = JenkinsTokenIssuer.generate();
    Path privateKey = Files.writeString(dir.resolve("signing.pem"), issuer.privateKeyPem());
    Path publicKey = Files.writeString(dir.resolve("public.pem"), issuer.publicKeyPem());

    JenkinsToken token = JenkinsTokenIssuer.fromPemFile(privateKey).issue(TEAM_A, NOW);

    assertThat(verifier(publicKey, TEAM_A, NOW).verify(token.getJwt()).accepted()).isTrue();
  }

  private static JenkinsTokenVerifier verifier(Path key, ControllerIdentity controller, Instant at) {
    Clock clock = Clock.fixed(at, ZoneOffset.UTC);
    return new JenkinsTokenVerifier(new PublicKeyRing(key, clock),
        new dev.varroa.plugin.auth.ControllerIdentity(controller.namespace(), controller.name(), controller.uid()), clock);
  }
}
