package dev.varroa.plugin.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWKSet;
import dev.varroa.plugin.testing.SteppedClock;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PublicKeyRingTest {

  @TempDir Path dir;
  final SteppedClock clock = new SteppedClock(Instant.parse("2030-01-01T12:00:00Z"));

  @Test
  void readsEveryKeyOfTheFileUnderItsThumbprint() throws KeySourceException {
    OperatorTokenSigner current = OperatorTokenSigner.withNewKey();
    OperatorTokenSigner next = OperatorTokenSigner.withNewKey();
    Path file = dir.resolve("public.pem");
    OperatorTokenSigner.writeKeyFile(file, current, next);

    assertThat(new PublicKeyRing(file, clock).keyIds()).containsExactlyInAnyOrder(current.kid(), next.kid());
  }

  @Test
  void refusesFileWithAKeyOtherThanP256() throws Exception {
    KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
    rsa.initialize(2048);
    Path file = dir.resolve("public.pem");
    OperatorTokenSigner.writeAtomically(file,
        OperatorTokenSigner.withNewKey().publicKeyPem() + OperatorTokenSigner.pem(rsa.generateKeyPair().getPublic()));

    assertThatThrownBy(() -> new PublicKeyRing(file, clock).keys())
        .isInstanceOf(KeySourceException.class)
        .hasMessageContaining("PEM block 2")
        .hasMessageContaining("EC P-256");
  }

  @Test
  void refusesFileWithoutPublicKeyBlocks() {
    Path file = dir.resolve("public.pem");
    OperatorTokenSigner.writeAtomically(file, "this is not a key\n");

    assertThatThrownBy(() -> new PublicKeyRing(file, clock).keys())
        .isInstanceOf(KeySourceException.class)
        .hasMessageContaining("holds no -----BEGIN PUBLIC KEY----- block");
  }

  @Test
  void startsWorkingOnceTheMissingFileAppears() throws KeySourceException {
    Path file = dir.resolve("public.pem");
    PublicKeyRing ring = new PublicKeyRing(file, clock);
    assertThatThrownBy(ring::keys).isInstanceOf(KeySourceException.class).hasMessageContaining("does not exist");

    OperatorTokenSigner signer = OperatorTokenSigner.withNewKey();
    OperatorTokenSigner.writeKeyFile(file, signer);
    clock.advance(PublicKeyRing.FILE_CHECK_INTERVAL);

    JWKSet keys = ring.keys();
    assertThat(keys.getKeyByKeyId(signer.kid())).isNotNull();
  }

  @Test
  void readsTheFileNamedByTheEnvironmentOrTheDefault() {
    assertThat(PublicKeyRing.fromEnvironment(Map.of(PublicKeyRing.KEY_FILE_VARIABLE, "/keys/jwt.pem"), clock).file())
        .isEqualTo(Path.of("/keys/jwt.pem"));
    assertThat(PublicKeyRing.fromEnvironment(Map.of(), clock).file())
        .isEqualTo(Path.of("/var/run/varroa-jwt/public.pem"));
  }
}
