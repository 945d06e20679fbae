package dev.varroa.recorder.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BlobStoreSettingsTest {

  @Test
  void keepsNoLogsWhenTheModeIsUnsetOrEmpty() {
    assertThat(BlobStoreSettings.fromEnv(Map.of()).mode()).isEqualTo(BlobStoreSettings.Mode.NONE);
    assertThat(BlobStoreSettings.fromEnv(Map.of("VARROA_BLOB_MODE", " ")).mode()).isEqualTo(BlobStoreSettings.Mode.NONE);
    assertThat(LogStores.open(BlobStoreSettings.fromEnv(Map.of()))).isEmpty();
  }

  @Test
  void splitsThePathStyleUrlIntoEndpointBucketAndPrefixWithDefaults() {
    BlobStoreSettings settings = BlobStoreSettings.fromEnv(Map.of("VARROA_BLOB_MODE", "s3",
        "VARROA_BLOB_S3_URL", "https://s3.example.com:9000/varroa-records/team-a/logs-root/"));
    assertThat(settings.s3Endpoint()).isEqualTo(URI.create("https://s3.example.com:9000"));
    assertThat(settings.s3Bucket()).isEqualTo("varroa-records");
    assertThat(settings.s3KeyPrefix()).isEqualTo("team-a/logs-root/");
    assertThat(settings.s3Region()).isEqualTo("us-east-1");
    assertThat(settings.s3CredentialsDir()).isEqualTo(Path.of("/var/run/varroa/blob-credentials"));
    assertThat(settings.describe()).isEqualTo("tier=s3 endpoint=https://s3.example.com:9000 bucket=varroa-records "
        + "prefix=team-a/logs-root/ region=us-east-1");

    BlobStoreSettings plain = BlobStoreSettings.fromEnv(Map.of("VARROA_BLOB_MODE", "S3",
        "VARROA_BLOB_S3_URL", "http://10.0.0.5/logs", "VARROA_BLOB_S3_REGION", "eu-west-3",
        "VARROA_BLOB_S3_CREDENTIALS_DIR", "/secrets/s3"));
    assertThat(plain.s3KeyPrefix()).isEmpty();
    assertThat(plain.s3Region()).isEqualTo("eu-west-3");
    assertThat(plain.s3CredentialsDir()).isEqualTo(Path.of("/secrets/s3"));
  }

  @Test
  void rejectsAnUnknownModeAndAnS3UrlWithoutBucketOrWithCredentials() {
    assertThatThrownBy(() -> BlobStoreSettings.fromEnv(Map.of("VARROA_BLOB_MODE", "gcs")))
        .hasMessageContaining("VARROA_BLOB_MODE='gcs'").hasMessageContaining("use s3 or postgres");
    assertThatThrownBy(() -> BlobStoreSettings.fromEnv(Map.of("VARROA_BLOB_MODE", "s3")))
        .hasMessageContaining("needs VARROA_BLOB_S3_URL");
    assertThatThrownBy(() -> BlobStoreSettings.fromEnv(Map.of("VARROA_BLOB_MODE", "s3",
        "VARROA_BLOB_S3_URL", "https://s3.example.com/")))
        .hasMessageContaining("names no bucket");
    assertThatThrownBy(() -> BlobStoreSettings.fromEnv(Map.of("VARROA_BLOB_MODE", "s3",
        "VARROA_BLOB_S3_URL", "https://key:secret@s3.example.com/bucket")))
        .hasMessageContaining("must not carry credentials").hasMessageNotContaining("secret@");
    assertThatThrownBy(() -> BlobStoreSettings.fromEnv(Map.of("VARROA_BLOB_MODE", "s3",
        "VARROA_BLOB_S3_URL", "s3://bucket")))
        .hasMessageContaining("http:// or https://");
  }

  @Test
  void readsThePostgresTierAndNeverShowsThePassword() {
    BlobStoreSettings settings = BlobStoreSettings.fromEnv(Map.of("VARROA_BLOB_MODE", "postgres",
        "VARROA_BLOB_POSTGRES_DSN", "jdbc:postgresql://db:5432/varroa?password=hunter2",
        "VARROA_BLOB_POSTGRES_USER", "varroa_gateway",
        "VARROA_BLOB_POSTGRES_PASSWORD_FILE", "/var/run/varroa/blob-db/password"));
    assertThat(settings.postgresUser()).isEqualTo("varroa_gateway");
    assertThat(settings.postgresPasswordFile()).isEqualTo(Path.of("/var/run/varroa/blob-db/password"));
    assertThat(settings.describe()).isEqualTo("tier=postgres dsn=jdbc:postgresql://db:5432/varroa?... user=varroa_gateway");
    assertThat(settings.toString()).doesNotContain("hunter2");
    assertThatThrownBy(() -> BlobStoreSettings.fromEnv(Map.of("VARROA_BLOB_MODE", "postgres")))
        .hasMessageContaining("needs VARROA_BLOB_POSTGRES_DSN");
    assertThatThrownBy(() -> BlobStoreSettings.fromEnv(Map.of("VARROA_BLOB_MODE", "postgres",
        "VARROA_BLOB_POSTGRES_DSN", "postgres://db/varroa")))
        .hasMessageContaining("must be a PostgreSQL JDBC URL");
  }

  @Test
  void theGatewayReadsOnlyTheBlobVariablesButTheRecorderFallsBackToItsOwnDatabase() {
    Map<String, String> env = Map.of("VARROA_BLOB_MODE", "postgres",
        "VARROA_RECORDER_DSN", "jdbc:postgresql://records:5432/varroa",
        "VARROA_RECORDER_DB_USER", "varroa_recorder",
        "VARROA_RECORDER_DB_PASSWORD_FILE", "/var/run/varroa/db/password");
    assertThatThrownBy(() -> BlobStoreSettings.fromEnv(env)).hasMessageContaining("VARROA_BLOB_POSTGRES_DSN");
    BlobStoreSettings recorder = BlobStoreSettings.fromRecorderEnv(env);
    assertThat(recorder.postgresDsn()).isEqualTo("jdbc:postgresql://records:5432/varroa");
    assertThat(recorder.postgresUser()).isEqualTo("varroa_recorder");
    assertThat(recorder.postgresPasswordFile()).isEqualTo(Path.of("/var/run/varroa/db/password"));
  }
}
