package dev.varroa.operator.updatecenter;

import dev.varroa.operator.render.UpdateCenterSigningSecretRenderer;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaMiscPEMGenerator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemWriter;

/**
 * Makes a managed UpdateCenter's signing material: a self-signed CA (the certificate controllers
 * trust), an RSA signer certificate it issues (Jenkins verifies update sites with RSA only), and the
 * import token. The CA's key signs once and is dropped: rotating means a new Secret, and controllers
 * get the new CA through the UpdateCenter's status.
 */
public final class UpdateCenterSigningKeys {
  /** Long-lived: an expired signer stops every controller's update site; rotate by deleting the Secret. */
  public static final Duration VALIDITY = Duration.ofDays(3650);
  static final int RSA_BITS = 3072;
  static final int IMPORT_TOKEN_BYTES = 32;
  private static final Duration CLOCK_SKEW_ALLOWANCE = Duration.ofMinutes(5);
  private static final SecureRandom RANDOM = new SecureRandom();

  private UpdateCenterSigningKeys() {}

  /** @param clock dates the certificates: valid from now minus the skew allowance for {@link #VALIDITY} */
  public static UpdateCenterSigningSecretRenderer.Material generate(String updateCenterName, Clock clock) {
    try {
      Instant now = clock.instant();
      Date from = Date.from(now.minus(CLOCK_SKEW_ALLOWANCE));
      Date until = Date.from(now.plus(VALIDITY));
      JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
      KeyPair caKeys = rsa();
      X500Name caName = new X500Name("CN=Varroa update center " + updateCenterName + " CA");
      X509Certificate ca = certificate(new JcaX509v3CertificateBuilder(caName, serial(), from, until, caName,
          caKeys.getPublic())
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
          .addExtension(Extension.subjectKeyIdentifier, false, extensions.createSubjectKeyIdentifier(caKeys.getPublic()))
          .build(new JcaContentSignerBuilder("SHA256withRSA").build(caKeys.getPrivate())));
      KeyPair signerKeys = rsa();
      X509Certificate signer = certificate(new JcaX509v3CertificateBuilder(ca, serial(), from, until,
          new X500Name("CN=Varroa update center " + updateCenterName), signerKeys.getPublic())
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
          .addExtension(Extension.authorityKeyIdentifier, false, extensions.createAuthorityKeyIdentifier(ca))
          .build(new JcaContentSignerBuilder("SHA256withRSA").build(caKeys.getPrivate())));
      byte[] token = new byte[IMPORT_TOKEN_BYTES];
      RANDOM.nextBytes(token);
      return new UpdateCenterSigningSecretRenderer.Material(pem(ca), pem(signer), pem(signerKeys.getPrivate()),
          Base64.getUrlEncoder().withoutPadding().encodeToString(token));
    } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
      throw new IllegalStateException("cannot make the signing key of UpdateCenter " + updateCenterName, e);
    }
  }

  private static KeyPair rsa() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(RSA_BITS, RANDOM);
    return generator.generateKeyPair();
  }

  private static X509Certificate certificate(X509CertificateHolder holder) throws GeneralSecurityException {
    return new JcaX509CertificateConverter().getCertificate(holder);
  }

  private static BigInteger serial() {
    return new BigInteger(127, RANDOM).add(BigInteger.ONE);
  }

  private static String pem(Object object) throws IOException {
    StringWriter out = new StringWriter();
    try (PemWriter writer = new PemWriter(out)) {
      writer.writeObject(new JcaMiscPEMGenerator(object));
    }
    return out.toString();
  }
}
