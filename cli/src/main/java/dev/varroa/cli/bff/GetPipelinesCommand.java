package dev.varroa.cli.bff;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code varroactl get pipelines}: a row per pipeline of every Team; a missing cluster's list is a warning. */
@Command(name = "pipelines", aliases = "pipeline", mixinStandardHelpOptions = true,
    description = {"Pipelines of every Team you may list pipelines of, across the registered clusters: the cell"
        + " running them, the job's kind (unknown for a member cluster's Team), the last run's result and the next"
        + " time its cron trigger fires (UTC).",
        "A cluster whose list did not arrive is named on stderr (`warning: cluster eu-2: list unavailable`) and the"
            + " command still exits 0 with the other clusters' rows."})
public final class GetPipelinesCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Option(names = "--cluster", paramLabel = "NAME", description = "Only this cluster's pipelines.")
  String cluster;

  @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE", description = "Only this namespace.")
  String namespace;

  @Option(names = "--team", paramLabel = "TEAM", description = "Only this Team's pipelines.")
  String team;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT",
      description = "table (default); wide adds JOB, LAST-RUN (how long ago it started) and REPOSITORY; yaml or json"
          + " print the BFF's answer (pipelines, recordStore and clusters).")
  OutputFormat output = OutputFormat.table;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Map<String, String> query = new LinkedHashMap<>();
    query.put("cluster", cluster);
    query.put("namespace", namespace);
    query.put("team", team);
    return ClusterAnswers.printList(spec, server, output, "/pipelines", query, "pipelines", GetPipelinesCommand::table,
        "No pipelines found" + (team == null ? "" : " of team " + team)
            + ClusterAnswers.where("namespace", namespace) + ClusterAnswers.where("cluster", cluster) + ".");
  }

  static Table table(JsonNode pipelines, boolean wide, Instant now) {
    List<String> headers = new ArrayList<>(List.of("CLUSTER", "NAMESPACE", "TEAM", "PIPELINE", "CELL", "KIND",
        "LAST-RESULT", "NEXT-RUN"));
    if (wide) {
      headers.addAll(List.of("JOB", "LAST-RUN", "REPOSITORY"));
    }
    Table table = new Table(headers);
    for (JsonNode pipeline : pipelines) {
      JsonNode last = pipeline.path("lastRun");
      List<String> row = new ArrayList<>(List.of(pipeline.path("cluster").asText(),
          pipeline.path("namespace").asText(), pipeline.path("team").asText(), pipeline.path("pipeline").asText(),
          pipeline.path("cell").asText("-"), pipeline.path("kind").asText(), lastResult(last),
          pipeline.path("nextRun").asText("-")));
      if (wide) {
        row.addAll(List.of(pipeline.path("job").asText(), Ages.since(last.path("startedAt").asText(null), now),
            pipeline.path("repository").asText()));
      }
      table.add(row);
    }
    return table;
  }

  /** The last run's result; running while it has none, queued before it starts, "-" without a recorded run. */
  static String lastResult(JsonNode last) {
    if (last.isMissingNode() || last.isNull()) {
      return "-";
    }
    if (!last.path("result").isNull() && !last.path("result").asText().isEmpty()) {
      return last.path("result").asText();
    }
    return last.path("startedAt").isNull() || last.path("startedAt").isMissingNode() ? "queued" : "running";
  }
}
