package dev.varroa.cli.render;

import dev.varroa.cli.Varroactl;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import picocli.CommandLine;

/** One in-process varroactl run with its exit code and output. */
record CommandRun(int exitCode, String out, String err) {
  static CommandRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = Varroactl.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute(args);
    return new CommandRun(code, out.toString(), err.toString());
  }

  /** The YAML stream on standard output, one map per object. */
  @SuppressWarnings("unchecked")
  List<Map<String, Object>> objects() {
    return java.util.stream.StreamSupport.stream(
        new Load(LoadSettings.builder().build()).loadAllFromString(out).spliterator(), false)
        .map(o -> (Map<String, Object>) o).toList();
  }

  /** {@code Kind/name} of each printed object, in order. */
  @SuppressWarnings("unchecked")
  List<String> kindsAndNames() {
    return objects().stream()
        .map(o -> o.get("kind") + "/" + ((Map<String, Object>) o.get("metadata")).get("name")).toList();
  }

  @SuppressWarnings("unchecked")
  Map<String, Object> object(String kind, String name) {
    return objects().stream().filter(o -> kind.equals(o.get("kind"))
        && name.equals(((Map<String, Object>) o.get("metadata")).get("name"))).findFirst().orElseThrow();
  }
}
