package dev.varroa.dashboard.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecordStoreSettingsTest {

  @Test
  void unsetOrFalseMeansNoRecordStoreAndTheOtherVariablesAreNotRead() {
    assertThat(RecordStoreSettings.fromEnv(Map.of())).isEqualTo(RecordStoreSettings.DISABLED);
    assertThat(RecordStoreSettings.fromEnv(Map.of("VARROA_RECORD_STORE_ENABLED", "false",
        "VARROA_BFF_DSN", "not a url")).enabled()).isFalse();
  }

  @Test
  void readsTheDsnUserAndPasswordFile() {
    RecordStoreSettings settings = RecordStoreSettings.fromEnv(Map.of("VARROA_RECORD_STORE_ENABLED", "TRUE",
        "VARROA_BFF_DSN", " jdbc:postgresql://varroa-recordstore-rw:5432/varroa?password=hunter2 ",
        "VARROA_BFF_DB_USER", "varroa_dashboard",
        "VARROA_BFF_DB_PASSWORD_FILE", "/var/run/varroa/db/password"));
    assertThat(settings.enabled()).isTrue();
    assertThat(settings.dsn()).isEqualTo("jdbc:postgresql://varroa-recordstore-rw:5432/varroa?password=hunter2");
    assertThat(settings.user()).isEqualTo("varroa_dashboard");
    assertThat(settings.passwordFile()).isEqualTo(Path.of("/var/run/varroa/db/password"));
    assertThat(settings.toString()).doesNotContain("hunter2")
        .contains("dsn=jdbc:postgresql://varroa-recordstore-rw:5432/varroa?...");
  }

  @Test
  void enabledWithoutADsnNamesTheVariable() {
    assertThatThrownBy(() -> RecordStoreSettings.fromEnv(Map.of("VARROA_RECORD_STORE_ENABLED", "true")))
        .hasMessageContaining("VARROA_BFF_DSN").hasMessageContaining("VARROA_RECORD_STORE_ENABLED=false");
  }

  @Test
  void aDsnThatIsNoPostgresUrlIsRefusedWithoutEchoingItsQuery() {
    assertThatThrownBy(() -> RecordStoreSettings.fromEnv(Map.of("VARROA_RECORD_STORE_ENABLED", "true",
        "VARROA_BFF_DSN", "postgres://db:5432/varroa?password=hunter2")))
        .hasMessageContaining("VARROA_BFF_DSN").hasMessageNotContaining("hunter2");
  }

  @Test
  void anEnabledValueOtherThanTrueOrFalseIsRefused() {
    assertThatThrownBy(() -> RecordStoreSettings.fromEnv(Map.of("VARROA_RECORD_STORE_ENABLED", "yes")))
        .hasMessageContaining("VARROA_RECORD_STORE_ENABLED='yes'").hasMessageContaining("true or false");
  }
}
