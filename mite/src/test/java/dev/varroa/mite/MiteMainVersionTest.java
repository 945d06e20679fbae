package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.ReleaseVersion;
import dev.varroa.testfixtures.process.StandardOutput;
import org.junit.jupiter.api.Test;

class MiteMainVersionTest {

  @Test
  void answersVersionWithoutReadingSettings() throws Exception {
    // no environment is set up here: a main that read its settings first would exit or throw
    assertThat(StandardOutput.of(() -> MiteMain.main(new String[] {"--version"})))
        .isEqualTo("varroa-mite " + ReleaseVersion.CURRENT + System.lineSeparator());
  }
}
