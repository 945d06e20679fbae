package dev.varroa.protocol.bus;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** The TLS context a component connects to a tls:// NATS server with: it trusts the installation's NATS CA only. */
public final class BusTrust {

  private BusTrust() {
  }

  /**
   * @param caPem one or more PEM certificates (the {@code ca.crt} of {@code varroa-nats-creds})
   * @param origin where the PEM came from, for the error message
   */
  public static SSLContext trusting(String caPem, String origin) throws IOException {
    try {
      Collection<? extends Certificate> certificates = CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(caPem.getBytes(StandardCharsets.US_ASCII)));
      if (certificates.isEmpty()) {
        throw new IOException(origin + " holds no PEM certificate: put the NATS CA certificate (ca.crt) there");
      }
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int i = 0;
      for (Certificate certificate : certificates) {
        store.setCertificateEntry("nats-ca-" + i++, certificate);
      }
      TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IOException(origin + " is not a usable CA certificate (" + e.getMessage()
          + "): put the NATS CA certificate (ca.crt, PEM) there", e);
    }
  }
}
