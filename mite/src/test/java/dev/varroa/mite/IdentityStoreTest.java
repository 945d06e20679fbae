package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.ControllerIdentity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IdentityStoreTest {

  private static final ControllerIdentity CONTROLLER = new ControllerIdentity("team-a", "ci", "uid-1");

  @TempDir
  Path dir;

  private Registrar registrar(IdentityStore store) {
    return new Registrar(CONTROLLER, dir.resolve("token"), store, null, null, new Backoff(), new StopSignal(),
        Clock.systemUTC());
  }

  @Test
  void keepsKeyAndChainOwnerOnlyAndReadsThemBack() throws Exception {
    Instant now = Instant.now();
    MiteIdentity identity = TestCertificates.identity(CONTROLLER, now.minusSeconds(60), now.plus(Duration.ofHours(72)));
    IdentityStore store = new IdentityStore(dir);

    store.save(identity);

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(IdentityStore.KEY_FILE))))
        .isEqualTo("rw-------");
    assertThat(Files.readString(dir.resolve(IdentityStore.KEY_FILE))).startsWith("-----BEGIN PRIVATE KEY-----");
    MiteIdentity loaded = store.load().orElseThrow();
    assertThat(loaded.certificate()).isEqualTo(identity.certificate());
    assertThat(loaded.keyMatches()).isTrue();
    assertThat(loaded.controller()).contains(CONTROLLER);
    assertThat(registrar(store).stored()).isPresent();
  }

  @Test
  void findsNothingInAnEmptyFolder() {
    assertThat(new IdentityStore(dir).load()).isEmpty();
  }

  @Test
  void ignoresUnreadableFiles() throws Exception {
    Files.writeString(dir.resolve(IdentityStore.KEY_FILE), "not a key");
    Files.writeString(dir.resolve(IdentityStore.CERTIFICATE_FILE), "not a certificate");

    assertThat(new IdentityStore(dir).load()).isEmpty();
  }

  @Test
  void doesNotReuseACertificateCloseToExpiry() throws Exception {
    Instant now = Instant.now();
    IdentityStore store = new IdentityStore(dir);
    store.save(TestCertificates.identity(CONTROLLER, now.minus(Duration.ofHours(72)), now.plus(Duration.ofMinutes(5))));

    assertThat(registrar(store).stored()).isEmpty();
  }

  @Test
  void doesNotReuseACertificateOfAnotherController() throws Exception {
    Instant now = Instant.now();
    IdentityStore store = new IdentityStore(dir);
    store.save(TestCertificates.identity(new ControllerIdentity("team-a", "ci", "uid-2"), now.minusSeconds(60),
        now.plus(Duration.ofHours(72))));

    assertThat(registrar(store).stored()).isEmpty();
  }

  @Test
  void doesNotReuseAKeyThatIsNotTheCertificates() throws Exception {
    Instant now = Instant.now();
    MiteIdentity one = TestCertificates.identity(CONTROLLER, now.minusSeconds(60), now.plus(Duration.ofHours(72)));
    MiteIdentity other = TestCertificates.identity(CONTROLLER, now.minusSeconds(60), now.plus(Duration.ofHours(72)));
    IdentityStore store = new IdentityStore(dir);
    store.save(new MiteIdentity(other.key(), List.of(one.certificate())));

    assertThat(registrar(store).stored()).isEmpty();
  }

  @Test
  void renewsAtHalfLifeGiveOrTakeTheJitter() throws Exception {
    Instant issued = Instant.parse("2026-01-01T00:00:00Z");
    MiteIdentity identity = TestCertificates.identity(CONTROLLER, issued, issued.plus(Duration.ofHours(72)));

    for (int i = 0; i < 50; i++) {
      assertThat(ChannelSession.renewAt(identity))
          .isBetween(issued.plus(Duration.ofMinutes(36 * 60 - 216)), issued.plus(Duration.ofMinutes(36 * 60 + 216)));
    }
  }
}
