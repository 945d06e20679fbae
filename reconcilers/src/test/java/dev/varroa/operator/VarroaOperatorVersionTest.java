package dev.varroa.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.ReleaseVersion;
import dev.varroa.testfixtures.process.StandardOutput;
import org.junit.jupiter.api.Test;

class VarroaOperatorVersionTest {

  @Test
  void answersVersionWithoutReadingSettings() throws Exception {
    // no environment is set up here: a main that read its settings first would exit or throw
    assertThat(StandardOutput.of(() -> VarroaOperator.main(new String[] {"--version"})))
        .isEqualTo("varroa-operator " + ReleaseVersion.CURRENT + System.lineSeparator());
  }
}
