package dev.varroa.plugin.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ArtifactStoreSettingsTest {

  private static Map<String, String> cellEnvironment() {
    Map<String, String> env = new HashMap<>();
    env.put("VARROA_ARTIFACTS_URL", "https://s3.example.com/varroa-records/member-eu");
    env.put("VARROA_ARTIFACTS_PREFIX", "member-eu/artifacts/eu-1/ci/shared/shared-0/");
    env.put("AWS_ACCESS_KEY_ID", "AKIASHARED");
    env.put("AWS_SECRET_ACCESS_KEY", "s3cr3t-value");
    return env;
  }

  @Test
  void readsTheCellsBucketPrefixAndPoolCredential() {
    ArtifactStoreSettings settings = ArtifactStoreSettings.fromEnvironment(cellEnvironment()).orElseThrow();
    assertThat(settings.endpoint()).isEqualTo(URI.create("https://s3.example.com"));
    assertThat(settings.bucket()).isEqualTo("varroa-records");
    assertThat(settings.cellPrefix()).isEqualTo("member-eu/artifacts/eu-1/ci/shared/shared-0/");
    assertThat(settings.region()).isEqualTo("us-east-1");
    assertThat(settings.sessionToken()).isNull();
    assertThat(settings.toString()).doesNotContain("s3cr3t-value");
  }

  @Test
  void aControllerWithoutTheUrlIsNoCell() {
    assertThat(ArtifactStoreSettings.fromEnvironment(Map.of())).isEmpty();
  }

  @Test
  void takesAnStsSessionToken() {
    Map<String, String> env = cellEnvironment();
    env.put("AWS_SESSION_TOKEN", "token");
    assertThat(ArtifactStoreSettings.fromEnvironment(env).orElseThrow().sessionToken()).isEqualTo("token");
  }

  @Test
  void refusesAPrefixOutsideTheUrlsArtifactFolder() {
    Map<String, String> env = cellEnvironment();
    env.put("VARROA_ARTIFACTS_PREFIX", "artifacts/eu-1/ci/shared/shared-0/");
    assertThatThrownBy(() -> ArtifactStoreSettings.fromEnvironment(env))
        .hasMessageContaining("VARROA_ARTIFACTS_PREFIX='artifacts/eu-1/ci/shared/shared-0/'")
        .hasMessageContaining("member-eu/artifacts/");
    env.put("VARROA_ARTIFACTS_PREFIX", "member-eu/artifacts/eu-1/ci/shared/../other/");
    assertThatThrownBy(() -> ArtifactStoreSettings.fromEnvironment(env))
        .hasMessageContaining("is not a cell's artifact prefix");
    env.remove("VARROA_ARTIFACTS_PREFIX");
    assertThatThrownBy(() -> ArtifactStoreSettings.fromEnvironment(env))
        .hasMessageContaining("VARROA_ARTIFACTS_PREFIX is not");
  }

  @Test
  void refusesAMissingCredentialNamingThePoolsSecret() {
    Map<String, String> env = cellEnvironment();
    env.remove("AWS_SECRET_ACCESS_KEY");
    assertThatThrownBy(() -> ArtifactStoreSettings.fromEnvironment(env))
        .hasMessageContaining("AWS_SECRET_ACCESS_KEY")
        .hasMessageContaining("<artifactSecret>-<pool>");
  }
}
