package dev.varroa.cli.bff;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code varroactl search TEXT}: controllers and runs that contain the text; incomplete clusters are named. */
@Command(name = "search", mixinStandardHelpOptions = true,
    description = {"Controllers (name, namespace, label values, bundle) and runs (job names) that contain TEXT.",
        "Each cluster whose list did not arrive is named on stderr: `warning: results incomplete: cluster eu-2 (list"
            + " unavailable)`.",
        "Exit codes: 0 searched (even with no results), 1 the server or network gave an error."})
public final class SearchCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(index = "0", paramLabel = "TEXT", description = "What to look for (case does not matter).")
  String text;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT",
      description = "table (default), wide, yaml or json (the BFF's answer).")
  OutputFormat output = OutputFormat.table;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    JsonNode answer = server.client().json("/search", Map.of("q", text));
    var out = spec.commandLine().getOut();
    var err = spec.commandLine().getErr();
    if (output.document()) {
      output.printDocument(answer, out);
    } else {
      Table controllers = new Table(List.of("CLUSTER", "NAMESPACE", "NAME", "PHASE", "ATTENTION", "BUNDLE"));
      for (JsonNode row : answer.path("controllers")) {
        controllers.add(List.of(row.path("cluster").asText(), row.path("namespace").asText(),
            row.path("name").asText(), row.path("phase").asText(), row.path("attention").asText(),
            row.path("bundle").asText()));
      }
      Table runs = new Table(List.of("CLUSTER", "NAMESPACE", "CONTROLLER", "JOB", "BUILD", "RESULT", "STARTED"));
      for (JsonNode run : answer.path("runs")) {
        runs.add(List.of(run.path("cluster").asText(), run.path("namespace").asText(),
            run.path("controller").asText(), run.path("job").asText(), run.path("build").asText(),
            run.path("result").asText(), run.path("startedAt").asText()));
      }
      if (controllers.isEmpty() && runs.isEmpty()) {
        err.println("Nothing matches \"" + text + "\".");
      }
      if (!controllers.isEmpty()) {
        out.println("CONTROLLERS");
        controllers.print(out);
      }
      if (!runs.isEmpty()) {
        if (!controllers.isEmpty()) {
          out.println();
        }
        out.println("RUNS");
        runs.print(out);
      }
      out.flush();
    }
    ClusterAnswers.warnSearchIncomplete(answer, err);
    return 0;
  }
}
