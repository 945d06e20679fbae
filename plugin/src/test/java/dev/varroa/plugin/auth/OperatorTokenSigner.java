package dev.varroa.plugin.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.PublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.UUID;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;

/** Mints tokens the way the operator does (test-only): ES256, kid = RFC 7638 thumbprint, 1-hour life. */
final class OperatorTokenSigner {

  static final Duration TOKEN_LIFETIME = Duration.ofHours(1);

  private final ECKey key;

  private OperatorTokenSigner(ECKey key) {
    this.key = key;
  }

  static OperatorTokenSigner withNewKey() {
    try {
      return new OperatorTokenSigner(new ECKeyGenerator(Curve.P_256).keyIDFromThumbprint(true).generate());
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  String kid() {
    return key.getKeyID();
  }

  /** The claims the operator sets for a controller, issued at {@code issuedAt}. */
  static JWTClaimsSet.Builder claims(String audience, Instant issuedAt) {
    return new JWTClaimsSet.Builder()
        .issuer("varroa-operator")
        .audience(audience)
        .subject("mite")
        .issueTime(Date.from(issuedAt))
        .notBeforeTime(Date.from(issuedAt))
        .expirationTime(Date.from(issuedAt.plus(TOKEN_LIFETIME)))
        .jwtID(UUID.randomUUID().toString());
  }

  String sign(JWTClaimsSet claims) {
    return sign(claims, kid());
  }

  /** Signs with this key but puts {@code kid} (null for none) in the header. */
  String sign(JWTClaimsSet claims, String kid) {
    try {
      SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(kid).build(), claims);
      jwt.sign(new ECDSASigner(key));
      return jwt.serialize();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  String publicKeyPem() {
    try {
      return pem(key.toECPublicKey());
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  static String pem(PublicKey publicKey) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(publicKey);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /** Replaces {@code file} in one step, as a Kubernetes volume update does, with these signers' keys. */
  static void writeKeyFile(Path file, OperatorTokenSigner... signers) {
    StringBuilder pem = new StringBuilder();
    for (OperatorTokenSigner signer : signers) {
      pem.append(signer.publicKeyPem());
    }
    writeAtomically(file, pem.toString());
  }

  static void writeAtomically(Path file, String content) {
    try {
      Path next = Files.createTempFile(file.getParent(), "next", ".pem");
      Files.writeString(next, content);
      Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
