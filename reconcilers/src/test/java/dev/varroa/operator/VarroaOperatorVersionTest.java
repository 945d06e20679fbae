package dev.varroa.operator;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.ReleaseVersion;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

class VarroaOperatorVersionTest {

  @Test
  void answersVersionWithoutReadingSettings() throws Exception {
    // no environment is set up here: a main that read its settings first would exit or throw
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    System.setOut(new PrintStream(printed, true, UTF_8));
    try {
      VarroaOperator.main(new String[] {"--version"});
    } finally {
      System.setOut(stdout);
    }
    assertThat(printed.toString(UTF_8)).isEqualTo("varroa-operator " + ReleaseVersion.CURRENT + System.lineSeparator());
  }
}
