package dev.varroa.plugin.artifacts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArtifactStagingTest {

  @TempDir
  Path jenkinsHome;

  @Test
  void livesUnderJenkinsHome() {
    assertThat(ArtifactStaging.directoryOf(jenkinsHome)).isEqualTo(jenkinsHome.resolve("varroa/artifact-staging"));
  }

  @Test
  void opensEmptiedOfCopiesAStoppedJenkinsLeft() throws Exception {
    Path directory = ArtifactStaging.directoryOf(jenkinsHome);
    Files.createDirectories(directory);
    Files.writeString(directory.resolve("artifact-1.copy"), "half an upload");

    ArtifactStaging staging = ArtifactStaging.open(directory);

    try (var left = Files.list(directory)) {
      assertThat(left).isEmpty();
    }
    Path copy = staging.newCopy();
    assertThat(copy.getParent()).isEqualTo(directory);
    assertThat(copy).isEmptyFile();
    assertThat(staging.newCopy()).isNotEqualTo(copy);
  }
}
