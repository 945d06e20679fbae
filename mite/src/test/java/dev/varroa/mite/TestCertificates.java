package dev.varroa.mite;

import dev.varroa.protocol.ControllerIdentity;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** Client certificates shaped like the gateway's (URI SAN = controller identity), for unit tests. */
final class TestCertificates {

  private TestCertificates() {
  }

  static MiteIdentity identity(ControllerIdentity controller, Instant notBefore, Instant notAfter) throws Exception {
    KeyPair ca = SigningRequest.generate().keyPair();
    KeyPair mite = SigningRequest.generate().keyPair();
    return new MiteIdentity(mite.getPrivate(), List.of(certificate(controller, mite, ca.getPrivate(), notBefore,
        notAfter)));
  }

  static X509Certificate certificate(ControllerIdentity controller, KeyPair subject, PrivateKey issuerKey,
      Instant notBefore, Instant notAfter) throws Exception {
    var builder = new JcaX509v3CertificateBuilder(new X500Name("CN=Test CA"), BigInteger.valueOf(System.nanoTime()),
        Date.from(notBefore), Date.from(notAfter), new X500Name("CN=" + controller.routeKey()), subject.getPublic())
        .addExtension(Extension.subjectAlternativeName, false,
            new GeneralNames(new GeneralName(GeneralName.uniformResourceIdentifier, controller.toString())));
    return new JcaX509CertificateConverter()
        .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey)));
  }
}
