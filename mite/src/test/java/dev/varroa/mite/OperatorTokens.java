package dev.varroa.mite;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.varroa.plugin.auth.JenkinsTokenVerifier;
import dev.varroa.plugin.auth.PublicKeyRing;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.mite.v1.JenkinsToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Mints Jenkins tokens as the operator does (ES256, kid = thumbprint) and gives the plugin's real
 * verifier for them, to plug into the Jenkins fixture's bearer check.
 */
final class OperatorTokens {

  static final Duration LIFETIME = Duration.ofHours(1);

  private final ECKey key;
  private final ControllerIdentity controller;
  private final JenkinsTokenVerifier verifier;

  private OperatorTokens(ECKey key, ControllerIdentity controller, JenkinsTokenVerifier verifier) {
    this.key = key;
    this.controller = controller;
    this.verifier = verifier;
  }

  static OperatorTokens forController(ControllerIdentity controller, Path dir) throws IOException {
    try {
      ECKey key = new ECKeyGenerator(Curve.P_256).keyIDFromThumbprint(true).generate();
      Path publicKey = dir.resolve("operator-public.pem");
      Files.writeString(publicKey, "-----BEGIN PUBLIC KEY-----\n"
          + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(key.toECPublicKey().getEncoded())
          + "\n-----END PUBLIC KEY-----\n", StandardCharsets.US_ASCII);
      JenkinsTokenVerifier verifier = new JenkinsTokenVerifier(new PublicKeyRing(publicKey, Clock.systemUTC()),
          new dev.varroa.plugin.auth.ControllerIdentity(controller.namespace(), controller.name(), controller.uid()),
          Clock.systemUTC());
      return new OperatorTokens(key, controller, verifier);
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The plugin's verifier, as the fixture's bearer check. */
  Predicate<String> accepted() {
    return token -> verifier.verify(token).accepted();
  }

  JenkinsToken mint() {
    Instant now = Instant.now();
    JWTClaimsSet claims = new JWTClaimsSet.Builder()
        .issuer("varroa-operator")
        .subject("mite")
        .audience(controller.toString())
        .issueTime(Date.from(now))
        .notBeforeTime(Date.from(now))
        .expirationTime(Date.from(now.plus(LIFETIME)))
        .jwtID(UUID.randomUUID().toString())
        .build();
    try {
      SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(key.getKeyID()).build(), claims);
      jwt.sign(new ECDSASigner(key));
      return JenkinsToken.newBuilder().setJwt(jwt.serialize())
          .setExpiresAtEpochMillis(now.plus(LIFETIME).toEpochMilli()).build();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }
}
