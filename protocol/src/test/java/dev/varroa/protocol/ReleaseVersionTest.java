package dev.varroa.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ReleaseVersionTest {

  @Test
  void isTheParentPomVersionWithoutSnapshot() throws IOException {
    // surefire runs in the module folder; the parent POM's own version follows its artifactId
    String pom = Files.readString(Path.of("..", "pom.xml"));
    Matcher parent = Pattern.compile("<artifactId>varroa-parent</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
    assertThat(parent.find()).as("the parent POM names its version").isTrue();
    assertThat(ReleaseVersion.CURRENT).isEqualTo(parent.group(1).replace("-SNAPSHOT", "")).doesNotContain("$");
  }

  @Test
  void printsTheComponentNameBeforeTheVersion() {
    assertThat(ReleaseVersion.line("gateway")).isEqualTo("varroa-gateway " + ReleaseVersion.CURRENT);
  }

  @Test
  void recognisesTheFlagAnywhereOnTheCommandLine() {
    assertThat(ReleaseVersion.requested(new String[] {"--version"})).isTrue();
    assertThat(ReleaseVersion.requested(new String[] {"--verbose", "--version"})).isTrue();
    assertThat(ReleaseVersion.requested(new String[] {})).isFalse();
    assertThat(ReleaseVersion.requested(new String[] {"-version"})).isFalse();
  }
}
