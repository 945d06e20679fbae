package dev.varroa.plugin.auth;

import static dev.varroa.plugin.auth.OperatorTokenSigner.claims;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import dev.varroa.plugin.testing.SteppedClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JenkinsTokenVerifierTest {

  static final Instant NOW = Instant.parse("2030-01-01T12:00:00Z");
  static final ControllerIdentity THIS_CONTROLLER = new ControllerIdentity("team-a", "ci", "0f1e2d3c-aaaa-bbbb-cccc-000000000001");
  static final ControllerIdentity OTHER_CONTROLLER = new ControllerIdentity("team-b", "ci", "0f1e2d3c-aaaa-bbbb-cccc-000000000002");

  @TempDir Path dir;
  Path keyFile;
  final SteppedClock clock = new SteppedClock(NOW);
  final OperatorTokenSigner operator = OperatorTokenSigner.withNewKey();
  JenkinsTokenVerifier verifier;

  @BeforeEach
  void trustOperatorKey() {
    keyFile = dir.resolve("public.pem");
    OperatorTokenSigner.writeKeyFile(keyFile, operator);
    verifier = new JenkinsTokenVerifier(new PublicKeyRing(keyFile, clock), THIS_CONTROLLER, clock);
  }

  JWTClaimsSet.Builder forThisController() {
    return claims(THIS_CONTROLLER.uri(), NOW);
  }

  @Test
  void acceptsTokenForThisController() {
    JWTClaimsSet claims = forThisController().build();

    TokenVerification result = verifier.verify(operator.sign(claims));

    assertThat(result).isEqualTo(new TokenVerification.Accepted(
        "mite", "spiffe://varroa.dev/ns/team-a/controller/ci/uid/0f1e2d3c-aaaa-bbbb-cccc-000000000001",
        NOW.plus(Duration.ofHours(1)), claims.getJWTID()));
  }

  @Test
  void refusesTokenForAnotherController() {
    String token = operator.sign(claims(OTHER_CONTROLLER.uri(), NOW).build());

    assertRefused(verifier.verify(token), RefusalReason.WRONG_AUDIENCE);
  }

  @Test
  void refusesTokenNamingThisAndAnotherController() {
    String token = operator.sign(forThisController().audience(List.of(THIS_CONTROLLER.uri(), OTHER_CONTROLLER.uri())).build());

    assertRefused(verifier.verify(token), RefusalReason.WRONG_AUDIENCE);
  }

  @Test
  void refusesExpiredTokenBeyondSkew() {
    String token = operator.sign(forThisController().build());
    clock.set(NOW.plus(Duration.ofHours(1)).plusSeconds(31));

    assertRefused(verifier.verify(token), RefusalReason.EXPIRED);
  }

  @Test
  void acceptsExpiredTokenWithinSkew() {
    String token = operator.sign(forThisController().build());
    clock.set(NOW.plus(Duration.ofHours(1)).plusSeconds(29));

    assertThat(verifier.verify(token).accepted()).isTrue();
  }

  @Test
  void refusesTokenBeforeItsNotBeforeTimeBeyondSkew() {
    String token = operator.sign(forThisController().build());
    clock.set(NOW.minusSeconds(31));

    assertRefused(verifier.verify(token), RefusalReason.NOT_YET_VALID);
  }

  @Test
  void acceptsEarlyTokenWithinSkew() {
    String token = operator.sign(forThisController().build());
    clock.set(NOW.minusSeconds(29));

    assertThat(verifier.verify(token).accepted()).isTrue();
  }

  @Test
  void refusesTokenSignedByAnotherKey() {
    OperatorTokenSigner stranger = OperatorTokenSigner.withNewKey();

    assertRefused(verifier.verify(stranger.sign(forThisController().build())), RefusalReason.UNKNOWN_KEY);
    assertRefused(verifier.verify(stranger.sign(forThisController().build(), null)), RefusalReason.BAD_SIGNATURE);
  }

  @Test
  void refusesForgedSignatureThatNamesTheTrustedKey() {
    String forged = OperatorTokenSigner.withNewKey().sign(forThisController().build(), operator.kid());

    assertRefused(verifier.verify(forged), RefusalReason.BAD_SIGNATURE);
  }

  @Test
  void refusesTokenWhoseClaimsWereChangedAfterSigning() {
    String[] parts = operator.sign(claims(OTHER_CONTROLLER.uri(), NOW).build()).split("\\.");
    String rewritten = Base64.getUrlEncoder().withoutPadding()
        .encodeToString(forThisController().build().toString().getBytes(StandardCharsets.UTF_8));

    assertRefused(verifier.verify(parts[0] + "." + rewritten + "." + parts[2]), RefusalReason.BAD_SIGNATURE);
  }

  @Test
  void refusesNoneAlgorithm() {
    String unsigned = new PlainJWT(forThisController().build()).serialize();

    assertRefused(verifier.verify(unsigned), RefusalReason.ALGORITHM_NOT_ALLOWED);
  }

  @Test
  void refusesHmacToken() throws JOSEException {
    // The classic confusion attack: HS256 keyed with the verifier's own public key bytes.
    SignedJWT hmac = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(operator.kid()).build(),
        forThisController().build());
    hmac.sign(new MACSigner(operator.publicKeyPem().getBytes(StandardCharsets.US_ASCII)));

    assertRefused(verifier.verify(hmac.serialize()), RefusalReason.ALGORITHM_NOT_ALLOWED);
  }

  @Test
  void refusesWrongIssuer() {
    String token = operator.sign(forThisController().issuer("someone-else").build());

    assertRefused(verifier.verify(token), RefusalReason.WRONG_ISSUER);
  }

  @Test
  void refusesTokenForAnotherSubject() {
    String token = operator.sign(forThisController().subject("admin").build());

    assertRefused(verifier.verify(token), RefusalReason.WRONG_SUBJECT);
  }

  @Test
  void refusesTokenWithoutJti() {
    String token = operator.sign(forThisController().jwtID(null).build());

    TokenVerification.Refused refused = assertRefused(verifier.verify(token), RefusalReason.MALFORMED);
    assertThat(refused.message()).contains("jti");
  }

  @Test
  void refusesTokenThatIsNotAJwt() {
    assertRefused(verifier.verify("not-a-jwt"), RefusalReason.MALFORMED);
    assertRefused(verifier.verify(""), RefusalReason.MALFORMED);
    assertRefused(verifier.verify(null), RefusalReason.MALFORMED);
  }

  @Test
  void refusesEveryTokenWhileTheKeyFileIsMissing() {
    JenkinsTokenVerifier withoutKeys = new JenkinsTokenVerifier(
        new PublicKeyRing(dir.resolve("absent.pem"), clock), THIS_CONTROLLER, clock);

    TokenVerification.Refused refused =
        assertRefused(withoutKeys.verify(operator.sign(forThisController().build())), RefusalReason.UNKNOWN_KEY);
    assertThat(refused.message()).contains("absent.pem", PublicKeyRing.KEY_FILE_VARIABLE);
  }

  @Test
  void picksKeyByKidDuringRotation() {
    OperatorTokenSigner next = OperatorTokenSigner.withNewKey();
    OperatorTokenSigner.writeKeyFile(keyFile, operator, next);
    JenkinsTokenVerifier duringRotation = new JenkinsTokenVerifier(new PublicKeyRing(keyFile, clock), THIS_CONTROLLER, clock);

    assertThat(duringRotation.verify(operator.sign(forThisController().build())).accepted()).isTrue();
    assertThat(duringRotation.verify(next.sign(forThisController().build())).accepted()).isTrue();
    // Without a kid every key is tried.
    assertThat(duringRotation.verify(next.sign(forThisController().build(), null)).accepted()).isTrue();
    // A kid that names a held key pins the check to that key alone.
    assertRefused(duringRotation.verify(next.sign(forThisController().build(), operator.kid())), RefusalReason.BAD_SIGNATURE);
  }

  @Test
  void reloadsRotatedKeyFile() {
    OperatorTokenSigner next = OperatorTokenSigner.withNewKey();
    String oldToken = operator.sign(forThisController().build());
    String newToken = next.sign(forThisController().build());
    assertThat(verifier.verify(oldToken).accepted()).isTrue();

    OperatorTokenSigner.writeKeyFile(keyFile, next);
    // The file is looked at again only once the check interval has passed.
    assertThat(verifier.verify(oldToken).accepted()).isTrue();
    assertRefused(verifier.verify(newToken), RefusalReason.UNKNOWN_KEY);

    clock.advance(PublicKeyRing.FILE_CHECK_INTERVAL);
    assertThat(verifier.verify(newToken).accepted()).isTrue();
    assertRefused(verifier.verify(oldToken), RefusalReason.UNKNOWN_KEY);
  }

  @Test
  void refusalMessagesNeverContainTheToken() throws JOSEException {
    OperatorTokenSigner stranger = OperatorTokenSigner.withNewKey();
    SignedJWT hmac = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), forThisController().build());
    hmac.sign(new MACSigner(new byte[32]));
    String valid = operator.sign(forThisController().build());
    List<String> refusedTokens = List.of(
        operator.sign(claims(OTHER_CONTROLLER.uri(), NOW).build()),
        operator.sign(forThisController().issuer("someone-else").build()),
        operator.sign(forThisController().expirationTime(Date.from(NOW.minusSeconds(3600))).build()),
        operator.sign(forThisController().jwtID(null).build()),
        stranger.sign(forThisController().build()),
        stranger.sign(forThisController().build(), operator.kid()),
        new PlainJWT(forThisController().build()).serialize(),
        hmac.serialize(),
        valid.substring(0, valid.lastIndexOf('.') + 1),
        valid.substring(0, valid.length() - 10),
        valid.replace('.', '!'),
        "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJtaXRlIn0-but-not-base64url.c2lnbmF0dXJlLXBhcnQ");

    for (String token : refusedTokens) {
      TokenVerification result = verifier.verify(token);
      assertThat(result).as("verification of a bad token").isInstanceOf(TokenVerification.Refused.class);
      String message = ((TokenVerification.Refused) result).message();
      assertThat(message).isNotBlank().doesNotContain(token).doesNotContain("\n", "\r");
      for (String part : token.split("[.!]")) {
        if (part.length() >= 8) {
          assertThat(message).as("message for %s", ((TokenVerification.Refused) result).reason()).doesNotContain(part);
        }
      }
    }
  }

  static TokenVerification.Refused assertRefused(TokenVerification result, RefusalReason reason) {
    assertThat(result).isInstanceOf(TokenVerification.Refused.class);
    TokenVerification.Refused refused = (TokenVerification.Refused) result;
    assertThat(refused.reason()).as(refused.message()).isEqualTo(reason);
    return refused;
  }
}
