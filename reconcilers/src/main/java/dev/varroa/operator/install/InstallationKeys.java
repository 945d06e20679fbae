package dev.varroa.operator.install;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The key material a new installation needs: CAs, the NATS server certificate, passwords and tokens.
 * Certificates are EC P-256 signed with SHA256withECDSA, as the gateway's own CA code expects.
 */
public final class InstallationKeys {

  /** A CA made at install time lasts as long as the gateway's default CA. */
  static final Duration CA_VALIDITY = Duration.ofDays(3650);
  /** The NATS server certificate; the operator renews it at start once less than {@link #RENEW_BEFORE} is left. */
  static final Duration SERVER_VALIDITY = Duration.ofDays(365);
  static final Duration RENEW_BEFORE = Duration.ofDays(30);
  private static final Duration BACKDATE = Duration.ofMinutes(5);
  private static final SecureRandom RANDOM = new SecureRandom();

  /** A certificate and its private key, both PEM. */
  public record Pair(String certificatePem, String privateKeyPem) {
    @Override
    public String toString() {
      return "Pair[certificate, privateKey=***]";
    }
  }

  private InstallationKeys() {
  }

  /** A self-signed CA that may sign leaf certificates only (path length 0). */
  public static Pair newCa(String commonName, Instant now) {
    KeyPair keys = ecKeyPair();
    X500Name name = new X500Name("CN=" + commonName);
    try {
      X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name, serial(),
          Date.from(now.minus(BACKDATE)), Date.from(now.plus(CA_VALIDITY)), name, keys.getPublic())
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      return new Pair(pem(sign(builder, keys.getPrivate())), pkcs8(keys.getPrivate()));
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot build the CA certificate CN=" + commonName, e);
    }
  }

  /** A TLS server certificate for the names and addresses, signed by the CA. */
  public static Pair issueServer(Pair ca, List<String> dnsNames, List<String> ipAddresses, Instant now) {
    KeyPair keys = ecKeyPair();
    List<GeneralName> names = new ArrayList<>();
    dnsNames.forEach(n -> names.add(new GeneralName(GeneralName.dNSName, n)));
    ipAddresses.forEach(ip -> names.add(new GeneralName(GeneralName.iPAddress, ip)));
    try {
      X509Certificate issuer = certificate(ca.certificatePem());
      X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuer, serial(),
          Date.from(now.minus(BACKDATE)), Date.from(now.plus(SERVER_VALIDITY)),
          new X500Name("CN=" + (dnsNames.isEmpty() ? ipAddresses.get(0) : dnsNames.get(0))), keys.getPublic())
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
          .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
          .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names.toArray(GeneralName[]::new)));
      return new Pair(pem(sign(builder, privateKey(ca.privateKeyPem()))), pkcs8(keys.getPrivate()));
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot issue a server certificate for " + dnsNames + " " + ipAddresses, e);
    }
  }

  /** True when the certificate names exactly these DNS names and addresses and stays valid past the renewal margin. */
  public static boolean covers(String certificatePem, List<String> dnsNames, List<String> ipAddresses, Instant now) {
    try {
      X509Certificate certificate = certificate(certificatePem);
      if (certificate.getNotAfter().toInstant().isBefore(now.plus(RENEW_BEFORE))) {
        return false;
      }
      Set<String> present = new TreeSet<>();
      Collection<List<?>> sans = certificate.getSubjectAlternativeNames();
      if (sans != null) {
        sans.forEach(san -> present.add(san.get(0) + "=" + san.get(1)));
      }
      Set<String> wanted = new TreeSet<>();
      dnsNames.forEach(n -> wanted.add(GeneralName.dNSName + "=" + n));
      ipAddresses.forEach(ip -> wanted.add(GeneralName.iPAddress + "=" + normalisedIp(ip)));
      return present.equals(wanted);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return false;
    }
  }

  /** 32 random bytes, URL-safe base64: a NATS password or a webhook token. */
  public static String secretToken() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  static X509Certificate certificate(String pem) throws GeneralSecurityException {
    return (X509Certificate) CertificateFactory.getInstance("X.509")
        .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
  }

  // Java renders an IPv6 SAN in its long form; compare both sides in that form.
  private static String normalisedIp(String ip) {
    try {
      byte[] raw = java.net.InetAddress.getByName(ip).getAddress();
      return java.net.InetAddress.getByAddress(raw).getHostAddress();
    } catch (java.net.UnknownHostException e) {
      throw new IllegalArgumentException("'" + ip + "' is not an IP address", e);
    }
  }

  private static PrivateKey privateKey(String pem) throws IOException {
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      Object parsed = parser.readObject();
      JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
      if (parsed instanceof PEMKeyPair pair) {
        return converter.getKeyPair(pair).getPrivate();
      }
      if (parsed instanceof PrivateKeyInfo info) {
        return converter.getPrivateKey(info);
      }
      throw new IOException("the CA key is not a PEM private key");
    }
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey key)
      throws GeneralSecurityException {
    try {
      return new JcaX509CertificateConverter().getCertificate(
          builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(key)));
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException("no SHA256withECDSA signer", e);
    }
  }

  private static String pem(Object object) throws IOException {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(object);
    }
    return out.toString();
  }

  private static String pkcs8(PrivateKey key) {
    try {
      return pem(new JcaPKCS8Generator(key, null));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static BigInteger serial() {
    return new BigInteger(127, RANDOM).add(BigInteger.ONE);
  }

  private static KeyPair ecKeyPair() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JRE offers no P-256 key generator", e);
    }
  }
}
