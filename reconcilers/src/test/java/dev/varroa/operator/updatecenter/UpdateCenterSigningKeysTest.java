package dev.varroa.operator.updatecenter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.operator.render.UpdateCenterSigningSecretRenderer;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class UpdateCenterSigningKeysTest {
  private static final Instant PINNED = Instant.parse("2031-02-03T04:05:06Z");

  @Test
  void datesBothCertificatesFromTheInjectedClock() throws Exception {
    UpdateCenterSigningSecretRenderer.Material material =
        UpdateCenterSigningKeys.generate("plugins", Clock.fixed(PINNED, ZoneOffset.UTC));

    for (String pem : new String[] {material.caPem(), material.signerPem()}) {
      X509Certificate certificate = certificate(pem);
      // five minutes before now, for controllers whose clock runs behind
      assertThat(certificate.getNotBefore().toInstant()).isEqualTo(PINNED.minus(Duration.ofMinutes(5)));
      assertThat(certificate.getNotAfter().toInstant()).isEqualTo(PINNED.plus(UpdateCenterSigningKeys.VALIDITY));
    }
  }

  private static X509Certificate certificate(String pem) throws Exception {
    return (X509Certificate) CertificateFactory.getInstance("X.509")
        .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.UTF_8)));
  }
}
