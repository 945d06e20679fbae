package dev.varroa.operator.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.ProtocolVersion;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.DesiredState;
import dev.varroa.protocol.mite.v1.File;
import dev.varroa.protocol.mite.v1.JenkinsToken;
import dev.varroa.protocol.seal.OpeningKey;
import dev.varroa.protocol.seal.SealedCommands;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;
import org.junit.jupiter.api.Test;

class CommandSealerTest {
  private static final Instant NOW = Instant.parse("2026-12-04T12:00:00Z");
  private static final ControllerIdentity APP = new ControllerIdentity("team-a", "app", "uid-1");
  private static final CertificateAuthority CA = CertificateAuthority.generate("Varroa CA", Duration.ofDays(30));

  private final CommandSealer sealer = new CommandSealer(CA.certificatePem(), Clock.fixed(NOW, ZoneOffset.UTC));
  private final KeyPair miteKey = keyPair();

  @Test
  void sealsToTheKeyOfTheCertificateTheCaSignedForThisController() throws Exception {
    Command sealed = sealer.seal(APP, ProtocolVersion.SEALED_SECRETS, certificate(CA, APP, miteKey, NOW), command());

    assertThat(sealed.getDesiredState().getSecretFilesList()).isEmpty();
    assertThat(SealedCommands.open(sealed, List.of(OpeningKey.of(miteKey.getPublic(), miteKey.getPrivate()))))
        .isEqualTo(command());
  }

  @Test
  void sendsAProtocolOneStreamTheClearFieldsItUnderstands() {
    assertThat(sealer.seal(APP, 1, "", command())).isEqualTo(command());
    assertThat(sealer.seal(APP, 0, "", JenkinsToken.newBuilder().setJwt("jwt").build()).getJwt()).isEqualTo("jwt");
  }

  @Test
  void refusesACertificateAnotherCaSigned() {
    CertificateAuthority stranger = CertificateAuthority.generate("Varroa CA", Duration.ofDays(30));

    assertThatThrownBy(() -> sealer.seal(APP, 2, certificate(stranger, APP, miteKey, NOW), command()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the mite stream of team-a.app").hasMessageContaining("not signed by the Varroa CA")
        .hasMessageContaining("fix:");
  }

  @Test
  void refusesACertificateForAnotherController() {
    ControllerIdentity other = new ControllerIdentity("team-b", "app", "uid-2");

    assertThatThrownBy(() -> sealer.seal(APP, 2, certificate(CA, other, miteKey, NOW), command()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("spiffe://varroa.dev/ns/team-b/controller/app/uid/uid-2")
        .hasMessageContaining("not spiffe://varroa.dev/ns/team-a/controller/app/uid/uid-1");
  }

  @Test
  void refusesAnExpiredCertificate() {
    String expired = certificate(CA, APP, miteKey, NOW.minus(CertificateAuthority.CLIENT_CERTIFICATE_LIFETIME)
        .minusSeconds(1));

    assertThatThrownBy(() -> sealer.seal(APP, 2, expired, command())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not at " + NOW);
  }

  @Test
  void refusesAProtocolTwoStreamWithoutACertificateOrWithoutTheCa() {
    assertThatThrownBy(() -> sealer.seal(APP, 2, "", command())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("carries no certificate_pem");
    assertThatThrownBy(() -> new CommandSealer("", Clock.systemUTC()).seal(APP, 2, certificate(CA, APP, miteKey, NOW),
        command())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fix: set VARROA_CA_CERT_FILE");
  }

  private static Command command() {
    return Command.newBuilder().setCommandId("c1").setDesiredState(DesiredState.newBuilder().setBundleDigest("d")
        .addSecretFiles(File.newBuilder().setPath("TOKEN").setContent(ByteString.copyFromUtf8("s3cret")))).build();
  }

  private static String certificate(CertificateAuthority ca, ControllerIdentity identity, KeyPair key, Instant at) {
    try {
      return ca.signClientCertificate(new JcaPKCS10CertificationRequestBuilder(new X500Name("CN=mite"), key.getPublic())
          .build(new JcaContentSignerBuilder("SHA256withECDSA").build(key.getPrivate())), identity, at)
          .certificateChainPem();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static KeyPair keyPair() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      return generator.generateKeyPair();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
