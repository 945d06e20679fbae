package dev.varroa.gateway.ca;

import dev.varroa.protocol.ControllerIdentity;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.PKCSException;

/**
 * The Varroa certificate authority (EC P-256, SHA256withECDSA): it signs the 72-hour client
 * certificates that carry a controller identity, and the gateway's own server certificate.
 */
public final class CertificateAuthority {

  /** "The gateway then issues a 72-hour client certificate for that controller identity." */
  public static final Duration CLIENT_CERTIFICATE_LIFETIME = Duration.ofHours(72);
  /** How long a CA made by {@link #createFiles} lives; rotating it means re-registering every mite. */
  public static final Duration DEFAULT_CA_VALIDITY = Duration.ofDays(3650);
  public static final String DEFAULT_CA_COMMON_NAME = "Varroa CA";
  /** Certificates start a little in the past so a peer whose clock runs behind accepts them at once. */
  static final Duration CLOCK_SKEW_ALLOWANCE = Duration.ofMinutes(5);
  private static final String SIGNATURE_ALGORITHM = "SHA256withECDSA";
  private static final String CURVE = "secp256r1";
  private static final int MINIMUM_EC_KEY_BITS = 256;
  private static final int MINIMUM_RSA_KEY_BITS = 2048;
  private static final BouncyCastleProvider BC = new BouncyCastleProvider();
  private static final SecureRandom RANDOM = new SecureRandom();

  private final X509Certificate certificate;
  private final PrivateKey privateKey;

  private CertificateAuthority(X509Certificate certificate, PrivateKey privateKey) {
    this.certificate = certificate;
    this.privateKey = privateKey;
  }

  /** A new self-signed CA with a fresh P-256 key. */
  public static CertificateAuthority generate(String commonName, Duration validity) {
    KeyPair keys = newKeyPair();
    Instant now = Instant.now();
    X500Name name = commonName(commonName);
    try {
      JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name, newSerial(),
          Date.from(now.minus(CLOCK_SKEW_ALLOWANCE)), Date.from(now.plus(validity)), name, keys.getPublic())
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
          .addExtension(Extension.subjectKeyIdentifier, false,
              extensions.createSubjectKeyIdentifier(keys.getPublic()));
      return new CertificateAuthority(sign(builder, keys.getPrivate()), keys.getPrivate());
    } catch (GeneralSecurityException | CertIOException e) {
      throw new IllegalStateException("cannot build the CA certificate for CN=" + commonName, e);
    }
  }

  /** Generates a CA and writes it to the two files: the demo's and the tests' one-liner. */
  public static CertificateAuthority createFiles(Path certPem, Path keyPem) throws IOException {
    CertificateAuthority ca = generate(DEFAULT_CA_COMMON_NAME, DEFAULT_CA_VALIDITY);
    ca.writeTo(certPem, keyPem);
    return ca;
  }

  /** Reads a CA written by {@link #writeTo} (or by openssl: PKCS#8 or SEC1 EC key, PEM). */
  public static CertificateAuthority load(Path certPem, Path keyPem) throws IOException {
    X509Certificate certificate = PemFiles.readCertificate(certPem);
    if (certificate.getBasicConstraints() < 0) {
      throw new IllegalArgumentException("CA certificate " + certPem + " is not a CA certificate (basicConstraints "
          + "CA:false): point VARROA_CA_CERT_FILE at the Varroa CA certificate");
    }
    PrivateKey key = PemFiles.readPrivateKey(keyPem);
    requireMatchingKey(certificate, key, certPem, keyPem);
    return new CertificateAuthority(certificate, key);
  }

  /** Writes the certificate and the key (PKCS#8, readable by its owner only). */
  public void writeTo(Path certPem, Path keyPem) throws IOException {
    Files.writeString(certPem, certificatePem(), StandardCharsets.US_ASCII);
    PemFiles.writeOwnerOnly(keyPem, PemFiles.privateKeyPem(privateKey));
  }

  public X509Certificate certificate() {
    return certificate;
  }

  public String certificatePem() {
    return PemFiles.pem(certificate);
  }

  /** A server certificate with a fresh key for the gateway's own TLS, chained to this CA. */
  public IssuedCertificate issueServerCertificate(List<String> dnsNames, List<String> ipAddresses, Duration validity) {
    if (dnsNames.isEmpty() && ipAddresses.isEmpty()) {
      throw new IllegalArgumentException("a server certificate needs at least one DNS name or IP address");
    }
    KeyPair keys = newKeyPair();
    List<GeneralName> names = new ArrayList<>();
    dnsNames.forEach(dns -> names.add(new GeneralName(GeneralName.dNSName, dns)));
    ipAddresses.forEach(ip -> names.add(new GeneralName(GeneralName.iPAddress, ip)));
    String subject = dnsNames.isEmpty() ? ipAddresses.get(0) : dnsNames.get(0);
    Instant now = Instant.now();
    try {
      X509v3CertificateBuilder builder = leafBuilder(subject, keys.getPublic(), now, now.plus(validity))
          .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
          .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names.toArray(GeneralName[]::new)));
      X509Certificate leaf = sign(builder, privateKey);
      return new IssuedCertificate(leaf, PemFiles.pem(leaf) + certificatePem(), PemFiles.privateKeyPem(keys.getPrivate()));
    } catch (GeneralSecurityException | CertIOException e) {
      throw new IllegalStateException("cannot issue a server certificate for " + names, e);
    }
  }

  /**
   * Signs a mite's CSR: valid from {@code now} for {@link #CLIENT_CERTIFICATE_LIFETIME}, subject
   * CN = route key, the identity URI as its only SAN, clientAuth only, not a CA. The CSR's own
   * subject and extensions are ignored; its signature must prove possession of the key.
   */
  public ClientCertificate signClientCertificate(PKCS10CertificationRequest csr, ControllerIdentity identity, Instant now)
      throws CertificateRequestRejectedException {
    Objects.requireNonNull(identity, "identity");
    PublicKey publicKey = verifiedPublicKey(csr);
    try {
      X509v3CertificateBuilder builder = leafBuilder(identity.routeKey(), publicKey, now,
          now.plus(CLIENT_CERTIFICATE_LIFETIME))
          .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth))
          .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(
              new GeneralName(GeneralName.uniformResourceIdentifier, identity.toString())));
      X509Certificate leaf = sign(builder, privateKey);
      return new ClientCertificate(leaf, PemFiles.pem(leaf) + certificatePem());
    } catch (GeneralSecurityException | CertIOException e) {
      throw new IllegalStateException("cannot sign a client certificate for " + identity, e);
    }
  }

  /** Parses a DER CSR and checks it before anything is spent on it (a bootstrap token, for one). */
  public static PKCS10CertificationRequest parseCertificationRequest(byte[] der)
      throws CertificateRequestRejectedException {
    if (der == null || der.length == 0) {
      throw new CertificateRequestRejectedException("the CSR is empty: send a PKCS#10 request, DER encoded");
    }
    PKCS10CertificationRequest csr;
    try {
      csr = new PKCS10CertificationRequest(der);
    } catch (IOException | RuntimeException e) {
      throw new CertificateRequestRejectedException("the CSR is not a PKCS#10 request in DER: " + e.getMessage(), e);
    }
    verifiedPublicKey(csr);
    return csr;
  }

  private static PublicKey verifiedPublicKey(PKCS10CertificationRequest csr) throws CertificateRequestRejectedException {
    PublicKey publicKey;
    try {
      publicKey = new JcaPEMKeyConverter().setProvider(BC).getPublicKey(csr.getSubjectPublicKeyInfo());
    } catch (IOException | RuntimeException e) {
      throw new CertificateRequestRejectedException("the CSR's public key is unreadable: " + e.getMessage(), e);
    }
    requireStrongKey(publicKey);
    try {
      if (!csr.isSignatureValid(new JcaContentVerifierProviderBuilder().setProvider(BC).build(publicKey))) {
        throw new CertificateRequestRejectedException("the CSR's signature does not verify with its own public key: "
            + "sign the request with the private key it names");
      }
    } catch (OperatorCreationException | PKCSException | RuntimeException e) {
      throw new CertificateRequestRejectedException("the CSR's signature cannot be checked: " + e.getMessage(), e);
    }
    return publicKey;
  }

  private static void requireStrongKey(PublicKey key) throws CertificateRequestRejectedException {
    if (key instanceof ECPublicKey ec && ec.getParams().getCurve().getField().getFieldSize() >= MINIMUM_EC_KEY_BITS) {
      return;
    }
    if (key instanceof RSAPublicKey rsa && rsa.getModulus().bitLength() >= MINIMUM_RSA_KEY_BITS) {
      return;
    }
    throw new CertificateRequestRejectedException("the CSR's key is a " + key.getAlgorithm()
        + " key the CA does not sign: use EC P-256 (or RSA of at least " + MINIMUM_RSA_KEY_BITS + " bits)");
  }

  private X509v3CertificateBuilder leafBuilder(String commonName, PublicKey publicKey, Instant notBefore,
      Instant notAfter) throws GeneralSecurityException, CertIOException {
    JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
    return new JcaX509v3CertificateBuilder(certificate, newSerial(), Date.from(notBefore.minus(CLOCK_SKEW_ALLOWANCE)),
        Date.from(notAfter), commonName(commonName), publicKey)
        .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
        .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
        .addExtension(Extension.subjectKeyIdentifier, false, extensions.createSubjectKeyIdentifier(publicKey))
        .addExtension(Extension.authorityKeyIdentifier, false, extensions.createAuthorityKeyIdentifier(certificate));
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey signer)
      throws GeneralSecurityException {
    try {
      ContentSigner contentSigner = new JcaContentSignerBuilder(SIGNATURE_ALGORITHM).setProvider(BC).build(signer);
      X509CertificateHolder holder = builder.build(contentSigner);
      return new JcaX509CertificateConverter().setProvider(BC).getCertificate(holder);
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException("no " + SIGNATURE_ALGORITHM + " signer", e);
    }
  }

  private static X500Name commonName(String commonName) {
    return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, commonName).build();
  }

  private static BigInteger newSerial() {
    // 127 random bits plus one: positive, non-zero, unguessable (RFC 5280 allows up to 20 octets).
    return new BigInteger(127, RANDOM).add(BigInteger.ONE);
  }

  private static KeyPair newKeyPair() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec(CURVE), RANDOM);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JRE offers no " + CURVE + " key generator", e);
    }
  }

  private static void requireMatchingKey(X509Certificate certificate, PrivateKey key, Path certPem, Path keyPem) {
    try {
      byte[] probe = "varroa-ca-key-check".getBytes(StandardCharsets.US_ASCII);
      Signature signer = Signature.getInstance(SIGNATURE_ALGORITHM, BC);
      signer.initSign(key);
      signer.update(probe);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(SIGNATURE_ALGORITHM, BC);
      verifier.initVerify(certificate.getPublicKey());
      verifier.update(probe);
      if (verifier.verify(signature)) {
        return;
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("the CA key " + keyPem + " cannot sign with " + SIGNATURE_ALGORITHM
          + " for the certificate " + certPem + ": the CA must use an EC key", e);
    }
    throw new IllegalArgumentException("the CA key " + keyPem + " does not belong to the certificate " + certPem
        + ": mount the key and certificate of the same CA");
  }

  @Override
  public String toString() {
    return "CertificateAuthority[" + certificate.getSubjectX500Principal() + ", notAfter="
        + certificate.getNotAfter().toInstant() + "]";
  }
}
