package dev.varroa.gateway.ca;

import java.security.cert.X509Certificate;
import java.time.Instant;

/** A client certificate signed for a mite's CSR: the chain (leaf, then CA) as the mite receives it. */
public record ClientCertificate(X509Certificate certificate, String certificateChainPem) {

  public Instant notAfter() {
    return certificate.getNotAfter().toInstant();
  }
}
