package dev.varroa.gateway.ca;

import java.security.cert.X509Certificate;
import java.time.Instant;

/**
 * A certificate the CA signed for a key it generated (the gateway's own TLS): the chain (leaf, then
 * CA) and the private key, both PEM. {@link #toString()} leaves the key out.
 */
public record IssuedCertificate(X509Certificate certificate, String certificateChainPem, String privateKeyPem) {

  public Instant notAfter() {
    return certificate.getNotAfter().toInstant();
  }

  @Override
  public String toString() {
    return "IssuedCertificate[subject=" + certificate.getSubjectX500Principal() + ", notAfter=" + notAfter() + "]";
  }
}
