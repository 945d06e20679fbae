package dev.varroa.updatecenter;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaMiscPEMGenerator;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemWriter;

/**
 * The key an update site signs with and the certificates that vouch for it. Jenkins verifies with
 * RSA only (SHA512withRSA, SHA1withRSA), so the key is RSA. The chain starts with the signer's
 * certificate; {@code ca} is the certificate controllers trust in {@code update-center-rootCAs/}.
 * Files in a folder (the mounted Secret): {@value #CA_FILE}, {@value #CERTIFICATE_FILE}, {@value #KEY_FILE}.
 */
public record SigningIdentity(List<X509Certificate> chain, PrivateKey key, X509Certificate ca) {
  public static final String CA_FILE = "ca.crt";
  public static final String CERTIFICATE_FILE = "signer.crt";
  public static final String KEY_FILE = "signer.key";
  /** "A certificate that expires stops every controller's plugin updates": long-lived, rotated by replacing the Secret. */
  public static final Duration DEFAULT_VALIDITY = Duration.ofDays(3650);
  static final int RSA_BITS = 3072;
  /** Certificates start a little in the past so a controller whose clock runs behind accepts them. */
  static final Duration CLOCK_SKEW_ALLOWANCE = Duration.ofMinutes(5);
  private static final SecureRandom RANDOM = new SecureRandom();

  public SigningIdentity {
    chain = List.copyOf(chain);
    if (chain.isEmpty()) {
      throw new IllegalArgumentException("a signing identity needs the signer's certificate");
    }
    if (!(key instanceof RSAPrivateKey)) {
      throw new IllegalArgumentException("Jenkins verifies update sites with RSA only; the signing key is "
          + key.getAlgorithm());
    }
  }

  public X509Certificate signer() {
    return chain.get(0);
  }

  /** Reads ca.crt, signer.crt (the signer first, then any intermediates) and signer.key (PKCS#8 or PKCS#1 PEM). */
  public static SigningIdentity load(Path folder) throws IOException {
    List<X509Certificate> ca = certificates(read(folder.resolve(CA_FILE)), folder.resolve(CA_FILE));
    List<X509Certificate> chain = certificates(read(folder.resolve(CERTIFICATE_FILE)), folder.resolve(CERTIFICATE_FILE));
    PrivateKey key = privateKey(read(folder.resolve(KEY_FILE)), folder.resolve(KEY_FILE));
    SigningIdentity identity = new SigningIdentity(chain, key, ca.get(0));
    identity.requireMatchingKey(folder);
    return identity;
  }

  /** A new CA and a signer certificate it issued, both RSA, valid for {@code validity}. */
  public static SigningIdentity generate(String commonName, Duration validity) {
    try {
      Instant now = Instant.now();
      KeyPair caKeys = rsaKeys();
      X500Name caName = new X500Name("CN=" + commonName + " CA");
      JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
      X509Certificate ca = sign(new JcaX509v3CertificateBuilder(caName, serial(), from(now), Date.from(now.plus(validity)),
          caName, caKeys.getPublic())
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
          .addExtension(Extension.subjectKeyIdentifier, false, extensions.createSubjectKeyIdentifier(caKeys.getPublic()))
          .build(signer(caKeys.getPrivate())));
      KeyPair signerKeys = rsaKeys();
      X509Certificate signer = sign(new JcaX509v3CertificateBuilder(ca, serial(), from(now), Date.from(now.plus(validity)),
          new X500Name("CN=" + commonName), signerKeys.getPublic())
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
          .addExtension(Extension.authorityKeyIdentifier, false, extensions.createAuthorityKeyIdentifier(ca))
          .build(signer(caKeys.getPrivate())));
      return new SigningIdentity(List.of(signer), signerKeys.getPrivate(), ca);
    } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
      throw new IllegalStateException("cannot create an update-site signing certificate for CN=" + commonName, e);
    }
  }

  /** Writes ca.crt, signer.crt and signer.key (owner-readable only) into the folder. */
  public void writeTo(Path folder) throws IOException {
    Files.createDirectories(folder);
    Files.writeString(folder.resolve(CA_FILE), pem(ca), StandardCharsets.US_ASCII);
    StringBuilder chainPem = new StringBuilder();
    for (X509Certificate certificate : chain) {
      chainPem.append(pem(certificate));
    }
    Files.writeString(folder.resolve(CERTIFICATE_FILE), chainPem, StandardCharsets.US_ASCII);
    Path keyFile = folder.resolve(KEY_FILE);
    Files.writeString(keyFile, pem(key), StandardCharsets.US_ASCII);
    try {
      Files.setPosixFilePermissions(keyFile, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system: the folder's own protection applies
    }
  }

  public String caPem() {
    return pem(ca);
  }

  /** PEM of a certificate or key. */
  public static String pem(Object object) {
    StringWriter out = new StringWriter();
    try (PemWriter writer = new PemWriter(out)) {
      writer.writeObject(new JcaMiscPEMGenerator(object));
    } catch (IOException e) {
      throw new IllegalStateException("cannot write PEM", e);
    }
    return out.toString();
  }

  static List<X509Certificate> certificates(String pem, Path source) throws IOException {
    List<X509Certificate> certificates = new ArrayList<>();
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      for (Object object; (object = parser.readObject()) != null; ) {
        if (object instanceof X509CertificateHolder holder) {
          certificates.add(new JcaX509CertificateConverter().getCertificate(holder));
        }
      }
    } catch (GeneralSecurityException e) {
      throw new IOException(source + ": not a readable certificate: " + e.getMessage(), e);
    }
    if (certificates.isEmpty()) {
      throw new IOException(source + " holds no PEM certificate");
    }
    return certificates;
  }

  static PrivateKey privateKey(String pem, Path source) throws IOException {
    try (Reader reader = new StringReader(pem); PEMParser parser = new PEMParser(reader)) {
      Object object = parser.readObject();
      JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
      if (object instanceof PEMKeyPair pair) {
        return converter.getKeyPair(pair).getPrivate();
      }
      if (object instanceof PrivateKeyInfo info) {
        return converter.getPrivateKey(info);
      }
    }
    throw new IOException(source + " holds no unencrypted PEM private key");
  }

  private void requireMatchingKey(Path folder) throws IOException {
    try {
      byte[] probe = "varroa-update-center".getBytes(StandardCharsets.US_ASCII);
      Signature signature = Signature.getInstance("SHA256withRSA");
      signature.initSign(key);
      signature.update(probe);
      byte[] signed = signature.sign();
      signature.initVerify(signer());
      signature.update(probe);
      if (!signature.verify(signed)) {
        throw new IOException(folder.resolve(KEY_FILE) + " is not the key of the certificate in "
            + folder.resolve(CERTIFICATE_FILE) + "; put the key and certificate of one signer together");
      }
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot check the signing key in " + folder + ": " + e.getMessage(), e);
    }
  }

  private static String read(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.US_ASCII);
  }

  private static KeyPair rsaKeys() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(RSA_BITS, RANDOM);
    return generator.generateKeyPair();
  }

  private static org.bouncycastle.operator.ContentSigner signer(PrivateKey key) throws OperatorCreationException {
    return new JcaContentSignerBuilder("SHA256withRSA").build(key);
  }

  private static X509Certificate sign(X509CertificateHolder holder) throws GeneralSecurityException {
    return new JcaX509CertificateConverter().getCertificate(holder);
  }

  private static BigInteger serial() {
    return new BigInteger(127, RANDOM).add(BigInteger.ONE);
  }

  private static Date from(Instant now) {
    return Date.from(now.minus(CLOCK_SKEW_ALLOWANCE));
  }
}
