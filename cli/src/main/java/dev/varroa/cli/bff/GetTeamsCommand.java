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

/** {@code varroactl get teams}: every Team with its pool and cell; a cluster whose list did not arrive is a warning. */
@Command(name = "teams", aliases = "team", mixinStandardHelpOptions = true,
    description = {"Teams of every registered cluster you may list, with their pool, the cell hosting them and"
        + " their phase (Placed, or Pending while every cell is full).",
        "A cluster whose list did not arrive is named on stderr (`warning: cluster eu-2: list unavailable`) and the"
            + " command still exits 0 with the other clusters' rows."})
public final class GetTeamsCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Option(names = "--cluster", paramLabel = "NAME", description = "Only this cluster's teams.")
  String cluster;

  @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE", description = "Only this namespace.")
  String namespace;

  @Option(names = "--pool", paramLabel = "POOL", description = "Only the teams of this CellPool.")
  String pool;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT",
      description = "table (default); wide adds PLACED-SINCE and MESSAGE; yaml or json print the BFF's answer (teams"
          + " and clusters).")
  OutputFormat output = OutputFormat.table;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Map<String, String> query = new LinkedHashMap<>();
    query.put("cluster", cluster);
    query.put("namespace", namespace);
    query.put("pool", pool);
    return ClusterAnswers.printList(spec, server, output, "/teams", query, "teams", GetTeamsCommand::table,
        "No teams found" + ClusterAnswers.where("pool", pool) + ClusterAnswers.where("namespace", namespace)
            + ClusterAnswers.where("cluster", cluster) + ".");
  }

  static Table table(JsonNode teams, boolean wide, Instant now) {
    List<String> headers = new ArrayList<>(List.of("CLUSTER", "NAMESPACE", "NAME", "POOL", "CELL", "PHASE",
        "PIPELINES", "AGE"));
    if (wide) {
      headers.addAll(List.of("PLACED-SINCE", "MESSAGE"));
    }
    Table table = new Table(headers);
    for (JsonNode team : teams) {
      String phase = team.path("phase").asText();
      List<String> row = new ArrayList<>(List.of(team.path("cluster").asText(), team.path("namespace").asText(),
          team.path("name").asText(), team.path("pool").asText(), team.path("cell").asText("-"),
          phase.isEmpty() ? "-" : phase, team.path("pipelines").asText(),
          Ages.since(team.path("createdAt").asText(null), now)));
      if (wide) {
        row.addAll(List.of(team.path("placedSince").asText(""), team.path("message").asText()));
      }
      table.add(row);
    }
    return table;
  }
}
