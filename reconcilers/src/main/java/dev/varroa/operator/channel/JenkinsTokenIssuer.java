package dev.varroa.operator.channel;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.mite.v1.JenkinsToken;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.UUID;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;

/**
 * Mints the short-lived, controller-specific JWT the mite presents to Jenkins as a bearer token.
 * The signing key stays with the operator; Jenkins holds only the public half.
 */
public final class JenkinsTokenIssuer {
  public static final String ISSUER = "varroa-operator";
  public static final String SUBJECT = "mite";
  /** Short-lived: the mite asks for a fresh one before it expires. */
  public static final Duration TOKEN_LIFETIME = Duration.ofHours(1);

  private final ECKey key;
  private final ECDSASigner signer;

  public JenkinsTokenIssuer(ECKey key) {
    if (!key.isPrivate()) {
      throw new IllegalArgumentException("the Jenkins token signing key has no private part;"
          + " fix: point VARROA_JWT_SIGNING_KEY_FILE at the PKCS#8 private key, not the public key");
    }
    try {
      String kid = key.computeThumbprint().toString();
      this.key = new ECKey.Builder(key).keyID(kid).build();
      this.signer = new ECDSASigner(this.key);
    } catch (JOSEException e) {
      throw new IllegalArgumentException("the Jenkins token signing key is not a usable P-256 key: " + e.getMessage(), e);
    }
  }

  /** A fresh P-256 key, for a first install and for tests. */
  public static JenkinsTokenIssuer generate() {
    try {
      return new JenkinsTokenIssuer(new ECKeyGenerator(Curve.P_256).generate());
    } catch (JOSEException e) {
      throw new IllegalStateException("P-256 key generation is part of every JRE", e);
    }
  }

  /** Reads a PEM private key (PKCS#8 or SEC1). */
  public static JenkinsTokenIssuer fromPemFile(Path file) throws IOException {
    String pem = Files.readString(file);
    try {
      JWK jwk = JWK.parseFromPEMEncodedObjects(pem);
      if (!(jwk instanceof ECKey ec) || !Curve.P_256.equals(ec.getCurve())) {
        throw new IllegalArgumentException(file + " does not hold a P-256 EC key; fix: generate one with"
            + " `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256`");
      }
      return new JenkinsTokenIssuer(ec);
    } catch (JOSEException e) {
      throw new IllegalArgumentException(file + " is not a PEM key: " + e.getMessage(), e);
    }
  }

  public JenkinsToken issue(ControllerIdentity controller, Instant now) {
    Instant expires = now.plus(TOKEN_LIFETIME);
    JWTClaimsSet claims = new JWTClaimsSet.Builder()
        .issuer(ISSUER)
        .audience(controller.toString())
        .subject(SUBJECT)
        .issueTime(Date.from(now))
        .notBeforeTime(Date.from(now))
        .expirationTime(Date.from(expires))
        .jwtID(UUID.randomUUID().toString())
        .build();
    SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(key.getKeyID()).build(), claims);
    try {
      jwt.sign(signer);
    } catch (JOSEException e) {
      throw new IllegalStateException("signing a Jenkins token failed: " + e.getMessage(), e);
    }
    return JenkinsToken.newBuilder().setJwt(jwt.serialize()).setExpiresAtEpochMillis(expires.toEpochMilli()).build();
  }

  /** The verification key, as the PEM file Jenkins mounts. */
  public String publicKeyPem() {
    return pem(key.toECKey().toPublicJWK());
  }

  /** The private key as PKCS#8 PEM, for writing a generated key where the operator reads it. */
  public String privateKeyPem() {
    try {
      StringWriter out = new StringWriter();
      try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
        writer.writeObject(new JcaPKCS8Generator(key.toECPrivateKey(), null));
      }
      return out.toString();
    } catch (IOException | JOSEException e) {
      throw new IllegalStateException("encoding the signing key failed: " + e.getMessage(), e);
    }
  }

  private static String pem(ECKey publicKey) {
    try {
      StringWriter out = new StringWriter();
      try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
        writer.writeObject(publicKey.toECPublicKey());
      }
      return out.toString();
    } catch (IOException | JOSEException e) {
      throw new IllegalStateException("encoding the verification key failed: " + e.getMessage(), e);
    }
  }
}
