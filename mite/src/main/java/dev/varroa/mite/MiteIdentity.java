package dev.varroa.mite;

import dev.varroa.protocol.ControllerIdentity;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/** The mite's client key and the certificate chain the gateway issued for it (leaf first). */
record MiteIdentity(PrivateKey key, List<X509Certificate> chain) {

  private static final int SAN_URI = 6;

  MiteIdentity {
    chain = List.copyOf(chain);
    if (chain.isEmpty()) {
      throw new IllegalArgumentException("an identity needs at least the client certificate");
    }
  }

  X509Certificate certificate() {
    return chain.get(0);
  }

  Instant notBefore() {
    return certificate().getNotBefore().toInstant();
  }

  Instant notAfter() {
    return certificate().getNotAfter().toInstant();
  }

  Duration lifetime() {
    return Duration.between(notBefore(), notAfter());
  }

  /** True when the certificate is still valid for more than {@code margin} after {@code now}. */
  boolean validBeyond(Instant now, Duration margin) {
    return !now.isBefore(notBefore()) && now.plus(margin).isBefore(notAfter());
  }

  /** The controller in the certificate's URI SAN, when it carries one. */
  Optional<ControllerIdentity> controller() {
    try {
      var sans = certificate().getSubjectAlternativeNames();
      if (sans == null) {
        return Optional.empty();
      }
      for (List<?> san : sans) {
        if (san.size() >= 2 && Integer.valueOf(SAN_URI).equals(san.get(0))) {
          try {
            return Optional.of(ControllerIdentity.parse(String.valueOf(san.get(1))));
          } catch (IllegalArgumentException notOurs) {
            // another URI SAN; keep looking
          }
        }
      }
      return Optional.empty();
    } catch (CertificateParsingException e) {
      return Optional.empty();
    }
  }

  /** True when the certificate holds the public half of the key. */
  boolean keyMatches() {
    return PublicKeys.match(certificate().getPublicKey(), key);
  }

  static List<X509Certificate> parseChain(String pem) throws CertificateException {
    CertificateFactory factory = CertificateFactory.getInstance("X.509");
    List<X509Certificate> chain = new ArrayList<>();
    for (var c : factory.generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))) {
      chain.add((X509Certificate) c);
    }
    if (chain.isEmpty()) {
      throw new CertificateException("the PEM text holds no certificate");
    }
    return chain;
  }

  static String chainPem(List<X509Certificate> chain) throws GeneralSecurityException {
    StringBuilder pem = new StringBuilder();
    for (X509Certificate c : chain) {
      pem.append(Pem.encode("CERTIFICATE", c.getEncoded()));
    }
    return pem.toString();
  }

  @Override
  public String toString() {
    // never print the key
    return "MiteIdentity[subject=" + certificate().getSubjectX500Principal() + ", notAfter=" + notAfter() + "]";
  }

  /** PEM armour without a provider. */
  static final class Pem {
    private Pem() {
    }

    static String encode(String type, byte[] der) {
      return "-----BEGIN " + type + "-----\n"
          + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
          + "\n-----END " + type + "-----\n";
    }

    static byte[] decode(String type, String pem) {
      String begin = "-----BEGIN " + type + "-----";
      String end = "-----END " + type + "-----";
      int from = pem.indexOf(begin);
      int to = pem.indexOf(end);
      if (from < 0 || to < from) {
        throw new IllegalArgumentException("no " + type + " block in the PEM text");
      }
      return Base64.getMimeDecoder().decode(pem.substring(from + begin.length(), to));
    }
  }
}
