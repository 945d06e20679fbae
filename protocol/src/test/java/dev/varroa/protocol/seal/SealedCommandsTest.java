package dev.varroa.protocol.seal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.nimbusds.jose.JWEObject;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.DesiredState;
import dev.varroa.protocol.mite.v1.File;
import dev.varroa.protocol.mite.v1.Header;
import dev.varroa.protocol.mite.v1.JenkinsToken;
import dev.varroa.protocol.mite.v1.OneShot;
import dev.varroa.protocol.mite.v1.ReplayDelivery;
import dev.varroa.protocol.mite.v1.Sealed;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class SealedCommandsTest {
  private static final String SECRET = "ghp_sealed-unit-test-secret-0xBEEF";
  private static final String JWT = "eyJhbGciOiJFUzI1NiJ9.jenkins-token-payload.signature";

  private final OpeningKey mite = key();
  private final OpeningKey otherMite = key();

  @Test
  void sealsTheSecretFilesAndTokenOfADesiredStateAndTheMiteOpensThem() throws Exception {
    Command clear = desiredState("cmd-1");

    Command sealed = SealedCommands.seal(clear, mite.publicKey());

    assertThat(sealed.getDesiredState().getSecretFilesList()).isEmpty();
    assertThat(sealed.getDesiredState().hasJenkinsToken()).isFalse();
    assertThat(sealed.getDesiredState().getJcascFilesList()).isEqualTo(clear.getDesiredState().getJcascFilesList());
    assertThat(sealed.getDesiredState().getBundleDigest()).isEqualTo("sha256:abc");
    assertThat(sealed.toByteArray()).asString(StandardCharsets.ISO_8859_1).doesNotContain(SECRET).doesNotContain(JWT);
    assertThat(SealedCommands.carriesClearSecrets(sealed)).isFalse();
    assertThat(SealedCommands.carriesClearSecrets(clear)).isTrue();
    assertThat(SealedCommands.open(sealed, List.of(mite))).isEqualTo(clear);
  }

  @Test
  void usesEcdhEsWithA256GcmNamingTheRecipientKeyAndThePurpose() throws Exception {
    Sealed sealed = SealedCommands.seal(desiredState("cmd-2"), mite.publicKey()).getDesiredState().getSealedSecrets();

    JWEObject jwe = JWEObject.parse(sealed.getJwe());
    assertThat(jwe.getHeader().getAlgorithm().getName()).isEqualTo("ECDH-ES");
    assertThat(jwe.getHeader().getEncryptionMethod().getName()).isEqualTo("A256GCM");
    assertThat(jwe.getHeader().getKeyID()).isEqualTo(mite.keyId());
    assertThat(jwe.getHeader().getCustomParam(SecretSeal.PURPOSE_HEADER)).isEqualTo("desired-state/cmd-2");
  }

  @Test
  void refusesACommandSealedToAnotherMitesKeyNamingBothKeys() {
    Command sealed = SealedCommands.seal(desiredState("cmd-3"), otherMite.publicKey());

    assertThatThrownBy(() -> SealedCommands.open(sealed, List.of(mite)))
        .isInstanceOfSatisfying(SealRefusedException.class, e -> {
          assertThat(e.reason()).isEqualTo(SealRefusedException.Reason.OTHER_KEY);
          assertThat(e.getMessage()).contains("command cmd-3's desired state", otherMite.keyId(), mite.keyId(),
              "nothing was applied");
        });
  }

  @Test
  void opensWithEitherKeyAMiteHoldsAfterARenewal() throws Exception {
    Command sealed = SealedCommands.seal(desiredState("cmd-4"), mite.publicKey());

    assertThat(SealedCommands.open(sealed, List.of(otherMite, mite)).getDesiredState().getSecretFiles(0)
        .getContent().toStringUtf8()).isEqualTo(SECRET);
  }

  @Test
  void refusesASealMovedIntoAnotherCommand() {
    Command first = SealedCommands.seal(desiredState("cmd-5"), mite.publicKey());
    Command moved = first.toBuilder().setCommandId("cmd-6").build();

    assertThatThrownBy(() -> SealedCommands.open(moved, List.of(mite)))
        .isInstanceOfSatisfying(SealRefusedException.class, e -> {
          assertThat(e.reason()).isEqualTo(SealRefusedException.Reason.WRONG_PURPOSE);
          assertThat(e.getMessage()).contains("desired-state/cmd-5", "desired-state/cmd-6");
        });
  }

  @Test
  void refusesASealChangedOnTheWay() {
    Command sealed = SealedCommands.seal(desiredState("cmd-7"), mite.publicKey());
    String[] parts = sealed.getDesiredState().getSealedSecrets().getJwe().split("\\.");
    byte[] ciphertext = Base64.getUrlDecoder().decode(parts[3]);
    ciphertext[0] ^= 1;
    parts[3] = Base64.getUrlEncoder().withoutPadding().encodeToString(ciphertext);
    Command tampered = sealed.toBuilder().setDesiredState(sealed.getDesiredState().toBuilder()
        .setSealedSecrets(Sealed.newBuilder().setJwe(String.join(".", parts)))).build();

    assertThatThrownBy(() -> SealedCommands.open(tampered, List.of(mite)))
        .isInstanceOfSatisfying(SealRefusedException.class,
            e -> assertThat(e.reason()).isEqualTo(SealRefusedException.Reason.DAMAGED));
  }

  @Test
  void sealsAReplayedDeliveryWholeBecauseItsHeadersAndPathMayHoldTheSendersSecret() throws Exception {
    Command clear = Command.newBuilder().setCommandId("cmd-8").setReplayDelivery(ReplayDelivery.newBuilder()
        .setMethod("POST").setPath("/project/app?token=" + SECRET)
        .addHeaders(Header.newBuilder().setName("X-Gitlab-Token").setValue(SECRET))
        .setBody(ByteString.copyFromUtf8("{}"))).build();

    Command sealed = SealedCommands.seal(clear, mite.publicKey());

    assertThat(sealed.getReplayDelivery().getPath()).isEmpty();
    assertThat(sealed.getReplayDelivery().getHeadersList()).isEmpty();
    assertThat(sealed.toByteArray()).asString(StandardCharsets.ISO_8859_1).doesNotContain(SECRET);
    assertThat(SealedCommands.open(sealed, List.of(mite))).isEqualTo(clear);
  }

  @Test
  void sealsTheJwtOfAJenkinsTokenAndKeepsItsExpiryReadable() throws Exception {
    JenkinsToken clear = JenkinsToken.newBuilder().setJwt(JWT).setExpiresAtEpochMillis(1234).build();

    JenkinsToken sealed = SealedCommands.seal(clear, mite.publicKey());

    assertThat(sealed.getJwt()).isEmpty();
    assertThat(sealed.getExpiresAtEpochMillis()).isEqualTo(1234);
    assertThat(SealedCommands.open(sealed, List.of(mite))).isEqualTo(clear);
    assertThatThrownBy(() -> SealedCommands.open(sealed, List.of(otherMite))).isInstanceOf(SealRefusedException.class);
  }

  @Test
  void leavesOneShotsAndClearCommandsAsTheyAre() throws Exception {
    Command oneShot = Command.newBuilder().setCommandId("cmd-9")
        .setOneShot(OneShot.newBuilder().setAction(OneShot.Action.QUIET_DOWN)).build();
    assertThat(SealedCommands.seal(oneShot, mite.publicKey())).isEqualTo(oneShot);
    // a protocol 1 operator's command opens to itself
    assertThat(SealedCommands.open(desiredState("cmd-10"), List.of(mite))).isEqualTo(desiredState("cmd-10"));
  }

  private static Command desiredState(String id) {
    return Command.newBuilder().setCommandId(id).setDeadlineEpochMillis(99).setDesiredState(DesiredState.newBuilder()
        .setBundleDigest("sha256:abc")
        .addJcascFiles(File.newBuilder().setPath("jcasc.yaml").setContent(ByteString.copyFromUtf8("jenkins: {}")))
        .addSecretFiles(File.newBuilder().setPath("GITHUB_TOKEN").setContent(ByteString.copyFromUtf8(SECRET)))
        .setJenkinsToken(JenkinsToken.newBuilder().setJwt(JWT).setExpiresAtEpochMillis(42))).build();
  }

  private static OpeningKey key() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      KeyPair pair = generator.generateKeyPair();
      return OpeningKey.of(pair.getPublic(), pair.getPrivate());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
