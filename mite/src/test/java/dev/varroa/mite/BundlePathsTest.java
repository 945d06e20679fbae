package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BundlePathsTest {

  private static final Path ROOT = Path.of("/var/varroa/casc");

  @Test
  void placesPlainAndNestedPathsUnderTheFolder() throws Exception {
    assertThat(BundlePaths.resolve(ROOT, "jenkins.yaml")).isEqualTo(Path.of("/var/varroa/casc/jenkins.yaml"));
    assertThat(BundlePaths.resolve(ROOT, "tools/maven.yaml")).isEqualTo(Path.of("/var/varroa/casc/tools/maven.yaml"));
    assertThat(BundlePaths.resolve(ROOT, "./a//b.yaml")).isEqualTo(Path.of("/var/varroa/casc/a/b.yaml"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"../etc/passwd", "a/../../b", "..", "a/..", "/etc/passwd", "\\windows", "C:/x", "a\\b",
      "", " ", ".", "a/\0b"})
  void rejectsPathsThatLeaveTheFolderOrAreAbsolute(String path) {
    assertThatThrownBy(() -> BundlePaths.resolve(ROOT, path))
        .isInstanceOf(BundlePaths.UnsafePathException.class)
        .hasMessageContaining("relative and stay inside their folder");
  }
}
