package dev.varroa.plugin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PluginSettingsTest {

  @Test
  void defaultsAreTheSeedBudgetsAndPaths() {
    PluginSettings settings = PluginSettings.fromEnvironment(Map.of());

    assertThat(settings.loopbackUrl()).isEqualTo(URI.create("http://127.0.0.1:9095"));
    assertThat(settings.tokenFile()).isEqualTo(Path.of("/var/run/varroa/loopback-token"));
    assertThat(settings.claimConnectTimeout()).isEqualTo(Duration.ofSeconds(1));
    assertThat(settings.claimReadTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(settings.spoolBytes()).isEqualTo(64L * 1024 * 1024);
    assertThat(settings.claimGate()).isFalse();
    assertThat(settings.logSpoolBytes()).isEqualTo(1L << 30);
  }

  @Test
  void readsTheLogCopyCapAndNamesItWhenBad() {
    assertThat(PluginSettings.fromEnvironment(Map.of("VARROA_LOG_SPOOL_BYTES", "256Mi")).logSpoolBytes())
        .isEqualTo(256L << 20);
    assertThatThrownBy(() -> PluginSettings.fromEnvironment(Map.of("VARROA_LOG_SPOOL_BYTES", "1GB")))
        .hasMessageContaining("VARROA_LOG_SPOOL_BYTES='1GB' is not a byte size");
  }

  @Test
  void readsSecondsAndIsoDurationsByteSizesAndTheGate() {
    PluginSettings settings = PluginSettings.fromEnvironment(Map.of(
        "VARROA_CLAIM_CONNECT_TIMEOUT", "1.5",
        "VARROA_CLAIM_READ_TIMEOUT", "PT2.5S",
        "VARROA_SPOOL_BYTES", "8Mi",
        "VARROA_CLAIM_GATE", "true",
        "VARROA_LOOPBACK_URL", "http://127.0.0.1:19095/",
        "VARROA_LOOPBACK_TOKEN_FILE", "/tmp/token"));

    assertThat(settings.claimConnectTimeout()).isEqualTo(Duration.ofMillis(1500));
    assertThat(settings.claimReadTimeout()).isEqualTo(Duration.ofMillis(2500));
    assertThat(settings.spoolBytes()).isEqualTo(8L << 20);
    assertThat(settings.claimGate()).isTrue();
    assertThat(settings.loopbackUrl()).isEqualTo(URI.create("http://127.0.0.1:19095"));
    assertThat(settings.tokenFile()).isEqualTo(Path.of("/tmp/token"));
    assertThat(PluginSettings.fromEnvironment(Map.of("VARROA_SPOOL_BYTES", "4096")).spoolBytes()).isEqualTo(4096);
  }

  @Test
  void badValuesNameTheVariableAndTheFix() {
    assertThatThrownBy(() -> PluginSettings.fromEnvironment(Map.of("VARROA_CLAIM_READ_TIMEOUT", "5 seconds")))
        .hasMessageContaining("VARROA_CLAIM_READ_TIMEOUT='5 seconds'")
        .hasMessageContaining("PT5S")
        .hasMessageContaining("default 5 s");
    assertThatThrownBy(() -> PluginSettings.fromEnvironment(Map.of("VARROA_CLAIM_CONNECT_TIMEOUT", "0")))
        .hasMessageContaining("VARROA_CLAIM_CONNECT_TIMEOUT='0' must be longer than zero");
    assertThatThrownBy(() -> PluginSettings.fromEnvironment(Map.of("VARROA_SPOOL_BYTES", "64MB")))
        .hasMessageContaining("VARROA_SPOOL_BYTES='64MB' is not a byte size")
        .hasMessageContaining("64Mi");
    assertThatThrownBy(() -> PluginSettings.fromEnvironment(Map.of("VARROA_CLAIM_GATE", "yes")))
        .hasMessageContaining("VARROA_CLAIM_GATE='yes' is neither true nor false");
    assertThatThrownBy(() -> PluginSettings.fromEnvironment(Map.of("VARROA_LOOPBACK_URL", "127.0.0.1:9095")))
        .hasMessageContaining("VARROA_LOOPBACK_URL='127.0.0.1:9095' is not an http://host:port URL");
  }
}
