package dev.varroa.recorder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecorderSettingsTest {

  private static Map<String, String> minimal() {
    Map<String, String> env = new HashMap<>();
    env.put("VARROA_RECORDER_DSN", "jdbc:postgresql://db:5432/varroa");
    env.put("VARROA_NATS_URL", "nats://nats:4222");
    return env;
  }

  @Test
  void defaultsHealthPortAndClusterName() {
    RecorderSettings settings = RecorderSettings.fromEnv(minimal());
    assertThat(settings.healthPort()).isEqualTo(9097);
    assertThat(settings.clusterName()).isEqualTo("local");
    assertThat(settings.dbUser()).isNull();
    assertThat(settings.dbPasswordFile()).isNull();
  }

  @Test
  void readsEveryVariable() {
    Map<String, String> env = minimal();
    env.put("VARROA_RECORDER_DB_USER", "varroa");
    env.put("VARROA_RECORDER_DB_PASSWORD_FILE", "/etc/varroa/db/password");
    env.put("VARROA_NATS_USER", "recorder");
    env.put("VARROA_NATS_PASSWORD_FILE", "/etc/varroa/nats/password");
    env.put("VARROA_NATS_CA_FILE", "/etc/varroa/nats/ca.crt");
    env.put("VARROA_HEALTH_PORT", "9197");
    env.put("VARROA_CLUSTER_NAME", "eu-1");
    RecorderSettings settings = RecorderSettings.fromEnv(env);
    assertThat(settings.dbUser()).isEqualTo("varroa");
    assertThat(settings.dbPasswordFile()).isEqualTo(Path.of("/etc/varroa/db/password"));
    assertThat(settings.natsUser()).isEqualTo("recorder");
    assertThat(settings.natsPasswordFile()).isEqualTo(Path.of("/etc/varroa/nats/password"));
    assertThat(settings.natsCaFile()).isEqualTo(Path.of("/etc/varroa/nats/ca.crt"));
    assertThat(settings.healthPort()).isEqualTo(9197);
    assertThat(settings.clusterName()).isEqualTo("eu-1");
  }

  @Test
  void namesTheMissingDsnAndItsForm() {
    Map<String, String> env = minimal();
    env.remove("VARROA_RECORDER_DSN");
    assertThatThrownBy(() -> RecorderSettings.fromEnv(env))
        .hasMessageContaining("VARROA_RECORDER_DSN is not set")
        .hasMessageContaining("jdbc:postgresql://");
  }

  @Test
  void refusesADsnOfAnotherDatabaseWithoutEchoingItsQuery() {
    Map<String, String> env = minimal();
    env.put("VARROA_RECORDER_DSN", "postgres://db:5432/varroa?password=hunter2");
    assertThatThrownBy(() -> RecorderSettings.fromEnv(env))
        .hasMessageContaining("VARROA_RECORDER_DSN must be a PostgreSQL JDBC URL")
        .hasMessageNotContaining("hunter2");
  }

  @Test
  void refusesBothPasswordForms() {
    Map<String, String> env = minimal();
    env.put("VARROA_RECORDER_DB_PASSWORD", "secret");
    env.put("VARROA_RECORDER_DB_PASSWORD_FILE", "/etc/varroa/db/password");
    assertThatThrownBy(() -> RecorderSettings.fromEnv(env))
        .hasMessageContaining("VARROA_RECORDER_DB_PASSWORD_FILE or VARROA_RECORDER_DB_PASSWORD, not both");
  }

  @Test
  void namesTheMissingNatsUrl() {
    Map<String, String> env = minimal();
    env.remove("VARROA_NATS_URL");
    assertThatThrownBy(() -> RecorderSettings.fromEnv(env)).hasMessageContaining("VARROA_NATS_URL is not set");
  }

  @Test
  void refusesAHealthPortThatIsNoPort() {
    Map<String, String> env = minimal();
    env.put("VARROA_HEALTH_PORT", "http");
    assertThatThrownBy(() -> RecorderSettings.fromEnv(env))
        .hasMessageContaining("VARROA_HEALTH_PORT must be a TCP port number (default 9097), got 'http'");
    env.put("VARROA_HEALTH_PORT", "70000");
    assertThatThrownBy(() -> RecorderSettings.fromEnv(env)).hasMessageContaining("VARROA_HEALTH_PORT must be a TCP port");
  }

  @Test
  void refusesAnEmptyClusterName() {
    Map<String, String> env = minimal();
    env.put("VARROA_CLUSTER_NAME", " ");
    assertThatThrownBy(() -> RecorderSettings.fromEnv(env)).hasMessageContaining("VARROA_CLUSTER_NAME is empty");
  }

  @Test
  void theDashboardUrlIsOptionalAndLosesItsTrailingSlash() {
    assertThat(RecorderSettings.fromEnv(minimal()).dashboardUrl()).isEmpty();
    Map<String, String> env = minimal();
    env.put("VARROA_DASHBOARD_URL", "https://varroa.example.com/");
    assertThat(RecorderSettings.fromEnv(env).dashboardUrl()).isEqualTo("https://varroa.example.com");
    env.put("VARROA_DASHBOARD_URL", "varroa.example.com");
    assertThatThrownBy(() -> RecorderSettings.fromEnv(env)).hasMessageContaining("VARROA_DASHBOARD_URL must be")
        .hasMessageContaining("dashboard.publicUrl");
  }

  @Test
  void neverPrintsThePassword() {
    RecorderSettings settings = RecorderSettings.of("jdbc:postgresql://db/varroa?password=hunter2", "varroa", "hunter2",
        "nats://nats:4222");
    assertThat(settings.toString()).doesNotContain("hunter2");
  }
}
