package dev.varroa.operator.channel;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.mite.v1.JenkinsToken;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.UUID;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.jce.ECNamedCurveTable;
import org.bouncycastle.jce.spec.ECNamedCurveParameterSpec;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
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

  /** Reads a PEM private key (PKCS#8 or SEC1); the public half is derived when the file lacks it. */
  public static JenkinsTokenIssuer fromPemFile(Path file) throws IOException {
    return fromPem(Files.readString(file, StandardCharsets.US_ASCII), file.toString());
  }

  /** @param origin where the PEM came from (a file, a Secret key), for the error message */
  public static JenkinsTokenIssuer fromPem(String pem, String origin) throws IOException {
    Object parsed;
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      parsed = parser.readObject();
    }
    String file = origin;
    JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
    PrivateKey privateKey;
    if (parsed instanceof PEMKeyPair pair) {
      privateKey = converter.getKeyPair(pair).getPrivate();
    } else if (parsed instanceof PrivateKeyInfo info) {
      privateKey = converter.getPrivateKey(info);
    } else {
      throw new IllegalArgumentException(file + " holds no PEM private key; fix: point VARROA_JWT_SIGNING_KEY_FILE at"
          + " a P-256 key made with `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256`");
    }
    if (!(privateKey instanceof ECPrivateKey ec) || Curve.forECParameterSpec(ec.getParams()) != Curve.P_256) {
      throw new IllegalArgumentException(file + " does not hold a P-256 EC key; fix: generate one with"
          + " `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256`");
    }
    return new JenkinsTokenIssuer(new ECKey.Builder(Curve.P_256, publicOf(ec)).privateKey(ec).build());
  }

  // Q = d x G on P-256: PKCS#8 files need not carry the public point.
  private static ECPublicKey publicOf(ECPrivateKey key) {
    ECNamedCurveParameterSpec curve = ECNamedCurveTable.getParameterSpec("secp256r1");
    org.bouncycastle.math.ec.ECPoint q = curve.getG().multiply(key.getS()).normalize();
    try {
      return (ECPublicKey) KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(
          new ECPoint(q.getAffineXCoord().toBigInteger(), q.getAffineYCoord().toBigInteger()), key.getParams()));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("deriving the P-256 public key failed: " + e.getMessage(), e);
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
