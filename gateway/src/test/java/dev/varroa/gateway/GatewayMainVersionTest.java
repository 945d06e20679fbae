package dev.varroa.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.ReleaseVersion;
import dev.varroa.testfixtures.process.StandardOutput;
import org.junit.jupiter.api.Test;

class GatewayMainVersionTest {

  @Test
  void answersVersionWithoutReadingSettings() throws Exception {
    // no environment is set up here: a main that read its settings first would exit or throw
    assertThat(StandardOutput.of(() -> GatewayMain.main(new String[] {"--version"})))
        .isEqualTo("varroa-gateway " + ReleaseVersion.CURRENT + System.lineSeparator());
  }
}
