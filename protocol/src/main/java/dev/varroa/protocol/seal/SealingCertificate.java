package dev.varroa.protocol.seal;

import dev.varroa.protocol.ControllerIdentity;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECParameterSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.List;

/**
 * The key a sender seals a mite's secrets to, taken from the client certificate a gateway published for its stream
 * (MiteRoute.certificate_pem) and trusted only when the Varroa CA signed it for that very controller: whoever can
 * write the routes bucket cannot swap in a key of their own.
 */
public final class SealingCertificate {

  private static final int SAN_URI = 6;
  private static final int P256_FIELD_BITS = 256;

  private SealingCertificate() {
  }

  /**
   * The certificate's EC P-256 public key, once the certificate is checked.
   *
   * @param what names the certificate's source in the message (e.g. "the route of ci.main")
   * @throws IllegalArgumentException naming what is wrong and the fix
   */
  public static ECPublicKey verify(String certificatePem, String caPem, ControllerIdentity controller, Instant now,
      String what) {
    if (certificatePem == null || certificatePem.isBlank()) {
      throw new IllegalArgumentException(what + " carries no certificate_pem, so there is no key to seal to; fix: "
          + "upgrade the gateway holding the stream to protocol 2");
    }
    X509Certificate leaf = first(certificatePem, what + "'s certificate_pem");
    List<X509Certificate> cas = all(caPem, "the Varroa CA certificate");
    boolean signed = false;
    for (X509Certificate ca : cas) {
      try {
        leaf.verify(ca.getPublicKey());
        signed = true;
        break;
      } catch (GeneralSecurityException notThisOne) {
        // try the next CA certificate (a CA being rotated sits beside the old one)
      }
    }
    if (!signed) {
      throw new IllegalArgumentException(what + "'s certificate (" + leaf.getSubjectX500Principal() + ") is not signed "
          + "by the Varroa CA the operator holds (VARROA_CA_CERT_FILE); nothing is sealed to it; fix: give the "
          + "operator the CA the gateways sign with");
    }
    try {
      leaf.checkValidity(Date.from(now));
    } catch (CertificateExpiredException | CertificateNotYetValidException e) {
      throw new IllegalArgumentException(what + "'s certificate is valid from " + leaf.getNotBefore().toInstant()
          + " to " + leaf.getNotAfter().toInstant() + ", not at " + now + "; the mite renews and reconnects");
    }
    String uri = controller.toUri().toString();
    if (!uris(leaf).equals(List.of(uri))) {
      throw new IllegalArgumentException(what + "'s certificate names " + uris(leaf) + ", not " + uri
          + "; nothing is sealed to it");
    }
    if (!(leaf.getPublicKey() instanceof ECPublicKey key) || !isP256(key.getParams())) {
      throw new IllegalArgumentException(what + "'s certificate holds a " + leaf.getPublicKey().getAlgorithm()
          + " key, not EC P-256; fix: upgrade the mite, which makes P-256 keys");
    }
    return key;
  }

  private static boolean isP256(ECParameterSpec params) {
    return params.getCurve().getField().getFieldSize() == P256_FIELD_BITS
        && params.getOrder().toString(16).equals("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");
  }

  private static List<String> uris(X509Certificate leaf) {
    List<String> uris = new ArrayList<>();
    try {
      Collection<List<?>> names = leaf.getSubjectAlternativeNames();
      for (List<?> name : names == null ? List.<List<?>>of() : names) {
        if (Integer.valueOf(SAN_URI).equals(name.get(0))) {
          uris.add(String.valueOf(name.get(1)));
        }
      }
    } catch (CertificateException e) {
      return List.of();
    }
    return uris;
  }

  private static X509Certificate first(String pem, String what) {
    return all(pem, what).get(0);
  }

  private static List<X509Certificate> all(String pem, String what) {
    try {
      List<X509Certificate> certificates = new ArrayList<>();
      for (var c : CertificateFactory.getInstance("X.509").generateCertificates(
          new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))) {
        certificates.add((X509Certificate) c);
      }
      if (certificates.isEmpty()) {
        throw new IllegalArgumentException(what + " holds no PEM certificate");
      }
      return certificates;
    } catch (CertificateException e) {
      throw new IllegalArgumentException(what + " is not a readable PEM certificate: " + e.getMessage(), e);
    }
  }
}
