package dev.varroa.plugin.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;

class ArchivedArtifactStoreTest {

  private static final String CELL = "artifacts/eu-1/ci/shared/shared-0/";

  @Test
  void keyIsCellPrefixJobFullNameBuildNumberAndRelativePath() {
    assertThat(ArchivedArtifactStore.objectKey(CELL, "payments/api build", 42, "target/site/index.html"))
        .isEqualTo("artifacts/eu-1/ci/shared/shared-0/payments/api build/42/target/site/index.html");
  }

  @Test
  void aWindowsAgentsPathUsesForwardSlashes() {
    assertThat(ArchivedArtifactStore.objectKey(CELL, "job", 1, "out\\app.zip")).endsWith("/job/1/out/app.zip");
  }

  @Test
  void refusesPathsThatClimbOutOfTheBuildsFolder() {
    assertThatThrownBy(() -> ArchivedArtifactStore.objectKey(CELL, "job", 1, "../../shared-1/job/1/x"))
        .hasMessageContaining("relative path '../../shared-1/job/1/x'").hasMessageContaining("'..'");
    assertThatThrownBy(() -> ArchivedArtifactStore.objectKey(CELL, "../other", 1, "x"))
        .hasMessageContaining("job full name '../other'");
    assertThatThrownBy(() -> ArchivedArtifactStore.objectKey(CELL, "job", 1, "/etc/passwd"))
        .hasMessageContaining("empty, '.' or '..' segment");
    assertThatThrownBy(() -> ArchivedArtifactStore.objectKey(CELL, "job", 0, "x"))
        .hasMessageContaining("build number 0 of job");
  }

  @Test
  void refusesAKeyLongerThanTheStoreTakes() {
    assertThatThrownBy(() -> ArchivedArtifactStore.objectKey(CELL, "job", 1, "d/".repeat(600) + "f"))
        .hasMessageContaining("over the object store's 1024").hasMessageContaining("shorten");
  }

  @Test
  void locationIsTheObjectUnderEndpointAndBucketWithWhatAUriMayNotHoldQuoted() {
    ArtifactStoreSettings settings = new ArtifactStoreSettings(URI.create("https://s3.example.com"), "varroa-records",
        CELL, "us-east-1", "AKIAPOOL", "pool-secret", null);
    try (ArchivedArtifactStore store = ArchivedArtifactStore.open(settings)) {
      assertThat(store.location("payments/api build", 42, "site/a#b.html")).hasToString("https://s3.example.com/"
          + "varroa-records/artifacts/eu-1/ci/shared/shared-0/payments/api%20build/42/site/a%23b.html");
      assertThat(store.location("job", 1, "")).hasToString(
          "https://s3.example.com/varroa-records/artifacts/eu-1/ci/shared/shared-0/job/1/");
      assertThat(store.location("job", 1, "x").toString()).doesNotContain("pool-secret", "AKIAPOOL");
      assertThatThrownBy(() -> store.location("job", 1, "../2/x")).hasMessageContaining("'..'");
    }
  }
}
