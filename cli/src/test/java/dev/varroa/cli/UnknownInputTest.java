package dev.varroa.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Unknown commands and flags fail as kubectl's do: a non-zero exit and a message naming what was not understood. */
class UnknownInputTest {
  @Test
  void anUnknownCommandExitsNonZeroNamingIt() {
    VarroactlRun run = VarroactlRun.of("no-such-command");

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE).isNotZero();
    assertThat(run.err()).contains("'no-such-command'");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void anUnknownFlagExitsNonZeroNamingItWithTheCommandsUsage() {
    VarroactlRun run = VarroactlRun.of("get", "controllers", "--bogus");

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(run.err()).contains("Unknown option: '--bogus'").contains("Usage: varroactl get controllers");
  }

  @Test
  void anUnknownResourceOfGetExitsNonZeroNamingIt() {
    VarroactlRun run = VarroactlRun.of("get", "no-such-resource");

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(run.err()).contains("'no-such-resource'");
  }
}
