package dev.varroa.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One varroactl invocation in-process, with its exit code and captured output. */
public record VarroactlRun(int exitCode, String out, String err) {
  public static VarroactlRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = Varroactl.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute(args);
    return new VarroactlRun(code, out.toString(), err.toString());
  }
}
