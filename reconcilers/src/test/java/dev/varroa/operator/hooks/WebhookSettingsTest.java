package dev.varroa.operator.hooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WebhookSettingsTest {
  @Test
  void defaultsToPort8082AndKeyTokenWithoutASecret() {
    WebhookSettings settings = WebhookSettings.fromEnv(Map.of());

    assertThat(settings).isEqualTo(new WebhookSettings(Optional.empty(), "token", 8082));
    assertThat(settings.secret(null, "varroa-system", Clock.systemUTC()).current().problem())
        .isEqualTo("VARROA_WEBHOOK_SECRET is not set; fix: set it to the name of a Secret in varroa-system whose key"
            + " 'token' holds the shared secret");
  }

  @Test
  void readsTheSecretNameKeyAndPort() {
    assertThat(WebhookSettings.fromEnv(Map.of("VARROA_WEBHOOK_SECRET", "varroa-webhook",
        "VARROA_WEBHOOK_SECRET_KEY", "github", "VARROA_WEBHOOK_PORT", "9443")))
        .isEqualTo(new WebhookSettings(Optional.of("varroa-webhook"), "github", 9443));
  }

  @Test
  void namesTheVariableAndTheFixOfABadPort() {
    assertThatThrownBy(() -> WebhookSettings.fromEnv(Map.of("VARROA_WEBHOOK_PORT", "http")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("VARROA_WEBHOOK_PORT='http' is not a port number; fix: set it to a port such as 8082, or leave it unset");
  }
}
