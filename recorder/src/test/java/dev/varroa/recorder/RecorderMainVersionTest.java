package dev.varroa.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.ReleaseVersion;
import dev.varroa.testfixtures.process.StandardOutput;
import org.junit.jupiter.api.Test;

class RecorderMainVersionTest {

  @Test
  void answersVersionWithoutReadingSettings() throws Exception {
    // no environment is set up here: a main that read its settings first would exit
    assertThat(StandardOutput.of(() -> RecorderMain.main(new String[] {"--version"})))
        .isEqualTo("varroa-recorder " + ReleaseVersion.CURRENT + System.lineSeparator());
  }
}
