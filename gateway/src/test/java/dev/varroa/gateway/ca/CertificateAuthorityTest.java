package dev.varroa.gateway.ca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.protocol.ControllerIdentity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CertificateAuthorityTest {

  private static final ControllerIdentity CONTROLLER = new ControllerIdentity("team-a", "jenkins", "1234-abcd");

  @TempDir
  Path directory;

  @Test
  void loadsWhatItWroteAndKeepsTheKeyFileToItsOwner() throws Exception {
    Path cert = directory.resolve("ca.pem");
    Path key = directory.resolve("ca-key.pem");
    CertificateAuthority written = CertificateAuthority.createFiles(cert, key);

    CertificateAuthority loaded = CertificateAuthority.load(cert, key);

    assertThat(loaded.certificate()).isEqualTo(written.certificate());
    assertThat(loaded.certificate().getBasicConstraints()).isGreaterThanOrEqualTo(0);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).isEqualTo("rw-------");
    KeyPair mite = ecKeys();
    loaded.signClientCertificate(csr(mite, mite), CONTROLLER, Instant.now()).certificate()
        .verify(written.certificate().getPublicKey());
  }

  @Test
  void refusesAKeyThatBelongsToAnotherCa() throws Exception {
    CertificateAuthority.createFiles(directory.resolve("a.pem"), directory.resolve("a-key.pem"));
    CertificateAuthority.createFiles(directory.resolve("b.pem"), directory.resolve("b-key.pem"));

    assertThatThrownBy(() -> CertificateAuthority.load(directory.resolve("a.pem"), directory.resolve("b-key.pem")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not belong to the certificate");
  }

  @Test
  void signsAClientCertificateWhoseOnlySanIsTheControllerIdentity() throws Exception {
    CertificateAuthority ca = CertificateAuthority.generate("test", Duration.ofDays(1));
    KeyPair keys = ecKeys();
    Instant now = Instant.parse("2030-01-01T00:00:00Z");

    ClientCertificate issued = ca.signClientCertificate(csr(keys, keys), CONTROLLER, now);

    assertThat(issued.certificate().getSubjectAlternativeNames()).containsExactly(List.of(6, CONTROLLER.toString()));
    assertThat(issued.certificate().getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.2");
    assertThat(issued.certificate().getBasicConstraints()).isEqualTo(-1);
    assertThat(issued.notAfter()).isEqualTo(now.plus(CertificateAuthority.CLIENT_CERTIFICATE_LIFETIME));
    assertThat(issued.certificate().getPublicKey()).isEqualTo(keys.getPublic());
    assertThat(issued.certificateChainPem()).endsWith(ca.certificatePem());
  }

  @Test
  void refusesACsrNotSignedByItsOwnKey() throws Exception {
    CertificateAuthority ca = CertificateAuthority.generate("test", Duration.ofDays(1));
    PKCS10CertificationRequest forged = csr(ecKeys(), ecKeys());
    byte[] der = forged.getEncoded();

    assertThatThrownBy(() -> CertificateAuthority.parseCertificationRequest(der))
        .isInstanceOf(CertificateRequestRejectedException.class)
        .hasMessageContaining("does not verify");
    assertThatThrownBy(() -> ca.signClientCertificate(forged, CONTROLLER, Instant.now()))
        .isInstanceOf(CertificateRequestRejectedException.class);
  }

  @Test
  void refusesAWeakKey() throws Exception {
    KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
    rsa.initialize(1024);
    KeyPair weak = rsa.generateKeyPair();
    byte[] der = new JcaPKCS10CertificationRequestBuilder(new X500Name("CN=x"), weak.getPublic())
        .build(new JcaContentSignerBuilder("SHA256withRSA").build(weak.getPrivate())).getEncoded();

    assertThatThrownBy(() -> CertificateAuthority.parseCertificationRequest(der))
        .isInstanceOf(CertificateRequestRejectedException.class)
        .hasMessageContaining("RSA");
  }

  @Test
  void refusesBytesThatAreNoCsr() {
    assertThatThrownBy(() -> CertificateAuthority.parseCertificationRequest(new byte[] {48, 3, 1, 1, 0}))
        .isInstanceOf(CertificateRequestRejectedException.class);
    assertThatThrownBy(() -> CertificateAuthority.parseCertificationRequest(new byte[0]))
        .isInstanceOf(CertificateRequestRejectedException.class)
        .hasMessageContaining("empty");
  }

  @Test
  void issuesAServerCertificateForItsNamesAndAddresses() throws Exception {
    CertificateAuthority ca = CertificateAuthority.generate("test", Duration.ofDays(1));

    IssuedCertificate server = ca.issueServerCertificate(List.of("gateway.varroa-system.svc", "localhost"),
        List.of("127.0.0.1"), Duration.ofDays(30));

    assertThat(server.certificate().getSubjectAlternativeNames()).containsExactlyInAnyOrder(
        List.of(2, "gateway.varroa-system.svc"), List.of(2, "localhost"), List.of(7, "127.0.0.1"));
    assertThat(server.certificate().getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
    assertThat(server.privateKeyPem()).startsWith("-----BEGIN PRIVATE KEY-----");
    assertThat(server.toString()).doesNotContain("PRIVATE KEY");
    server.certificate().verify(ca.certificate().getPublicKey());
  }

  private static KeyPair ecKeys() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }

  private static PKCS10CertificationRequest csr(KeyPair subject, KeyPair signer) throws Exception {
    return new JcaPKCS10CertificationRequestBuilder(new X500Name("CN=ignored"), subject.getPublic())
        .build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate()));
  }
}
