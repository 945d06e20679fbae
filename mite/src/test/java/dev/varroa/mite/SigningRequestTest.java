package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.interfaces.ECPublicKey;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.junit.jupiter.api.Test;

class SigningRequestTest {

  @Test
  void buildsAPkcs10RequestBouncyCastleAcceptsAndVerifies() throws Exception {
    SigningRequest request = SigningRequest.generate();

    PKCS10CertificationRequest parsed = new PKCS10CertificationRequest(request.csrDer());

    assertThat(parsed.isSignatureValid(new JcaContentVerifierProviderBuilder().build(request.keyPair().getPublic())))
        .isTrue();
    assertThat(parsed.getSignatureAlgorithm().getAlgorithm()).isEqualTo(X9ObjectIdentifiers.ecdsa_with_SHA256);
    assertThat(parsed.getSubject().toString()).isEqualTo("CN=varroa-mite");
    assertThat(parsed.getSubjectPublicKeyInfo().getEncoded()).isEqualTo(request.keyPair().getPublic().getEncoded());
    assertThat(parsed.getAttributes()).isEmpty();
    assertThat(((ECPublicKey) request.keyPair().getPublic()).getParams().getCurve().getField().getFieldSize())
        .isEqualTo(256);
  }

  @Test
  void makesAFreshKeyEachTime() {
    assertThat(SigningRequest.generate().keyPair().getPublic())
        .isNotEqualTo(SigningRequest.generate().keyPair().getPublic());
  }

  @Test
  void encodesLongLengthsInDer() {
    assertThat(SigningRequest.tlv(0x04, new byte[5])).startsWith(0x04, 5);
    assertThat(SigningRequest.tlv(0x04, new byte[200])).startsWith(0x04, 0x81, 200);
    assertThat(SigningRequest.tlv(0x04, new byte[300])).startsWith(0x04, 0x82, 1, 44);
  }
}
