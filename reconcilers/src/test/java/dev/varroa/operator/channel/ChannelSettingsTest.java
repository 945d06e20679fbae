package dev.varroa.operator.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChannelSettingsTest {

  @Test
  void withoutANatsUrlTheOperatorRunsWithoutAChannel() throws Exception {
    assertThat(ChannelSettings.fromEnv(Map.of())).isEmpty();
  }

  @Test
  void aMissingCaFileSettingIsNamedWithItsFix() {
    assertThatThrownBy(() -> ChannelSettings.fromEnv(Map.of("VARROA_NATS_URL", "nats://127.0.0.1:4222")))
        .hasMessageContaining("VARROA_CA_CERT_FILE").hasMessageContaining("fix");
  }

  @Test
  void thePasswordFileIsReadAtEveryAttemptSoARotationNeedsNoRestart(@TempDir Path dir) throws Exception {
    Path password = Files.writeString(dir.resolve("password"), "first\n");
    Path ca = Files.writeString(dir.resolve("ca.crt"), "-----BEGIN CERTIFICATE-----\n");
    Path key = dir.resolve("signing-key.pem");
    Files.writeString(key, JenkinsTokenIssuer.generate().privateKeyPem());
    ChannelSettings settings = ChannelSettings.fromEnv(Map.of("VARROA_NATS_URL", "nats://127.0.0.1:4222",
        "VARROA_NATS_USER", "operator", "VARROA_NATS_PASSWORD_FILE", password.toString(),
        "VARROA_CA_CERT_FILE", ca.toString(), "VARROA_JWT_SIGNING_KEY_FILE", key.toString())).orElseThrow();

    assertThat(settings.natsCredential().read()).get().satisfies(c -> assertThat(c.password()).isEqualTo("first"));
    Files.writeString(password, "second\n");
    assertThat(settings.natsCredential().read()).get().satisfies(c -> assertThat(c.password()).isEqualTo("second"));
    Files.delete(password);
    assertThat(settings.natsCredential().read()).isEmpty();
  }
}
