package dev.varroa.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.util.Map;
import picocli.CommandLine;

/** One varroactl invocation in-process, with its exit code and captured output. */
public record VarroactlRun(int exitCode, String out, String err) {
  public static VarroactlRun of(String... args) {
    return run(Varroactl.commandLine(), args);
  }

  /** With this environment instead of the process's (XDG_CONFIG_HOME pointing at a test's own config folder). */
  public static VarroactlRun in(Map<String, String> environment, String... args) {
    return run(Varroactl.commandLine(environment, Clock.systemUTC()), args);
  }

  private static VarroactlRun run(CommandLine cli, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute(args);
    return new VarroactlRun(code, out.toString(), err.toString());
  }
}
