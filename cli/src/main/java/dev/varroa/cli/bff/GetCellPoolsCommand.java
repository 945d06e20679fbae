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

/** {@code varroactl get cellpools}: a row per pool per cluster; a cluster whose list did not arrive is a warning. */
@Command(name = "cellpools", aliases = "cellpool", mixinStandardHelpOptions = true,
    description = {"CellPools of every registered cluster you may list: cells wanted and ready, hosted teams, load"
        + " (hosted teams over the room of the existing cells) and the teams still without a cell.",
        "A cluster whose list did not arrive is named on stderr (`warning: cluster eu-2: list unavailable`) and the"
            + " command still exits 0 with the other clusters' rows."})
public final class GetCellPoolsCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Option(names = "--cluster", paramLabel = "NAME", description = "Only this cluster's pools.")
  String cluster;

  @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE", description = "Only this namespace.")
  String namespace;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT",
      description = "table (default); wide adds CELLS (each cell's phase and hosted teams over teamsPerCell); yaml or"
          + " json print the BFF's answer (pools and clusters).")
  OutputFormat output = OutputFormat.table;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Map<String, String> query = new LinkedHashMap<>();
    query.put("cluster", cluster);
    query.put("namespace", namespace);
    return ClusterAnswers.printList(spec, server, output, "/cells", query, "pools", GetCellPoolsCommand::table,
        "No cell pools found" + ClusterAnswers.where("namespace", namespace)
            + ClusterAnswers.where("cluster", cluster) + ".");
  }

  static Table table(JsonNode pools, boolean wide, Instant now) {
    List<String> headers = new ArrayList<>(List.of("CLUSTER", "NAMESPACE", "NAME", "REPLICAS", "READY", "TEAMS",
        "LOAD", "UNPLACED", "AGE"));
    if (wide) {
      headers.add("CELLS");
    }
    Table table = new Table(headers);
    for (JsonNode pool : pools) {
      List<String> row = new ArrayList<>(List.of(pool.path("cluster").asText(), pool.path("namespace").asText(),
          pool.path("name").asText(), pool.path("replicas").asText(), pool.path("ready").asText(),
          pool.path("teams").asText(), percent(pool.path("load").asDouble()),
          String.valueOf(pool.path("unplacedTeams").size()), Ages.since(pool.path("createdAt").asText(null), now)));
      if (wide) {
        List<String> cells = new ArrayList<>();
        int perCell = pool.path("teamsPerCell").asInt();
        for (JsonNode cell : pool.path("cells")) {
          String phase = cell.path("phase").asText();
          cells.add(cell.path("name").asText() + "=" + (phase.isEmpty() ? "-" : phase) + ":"
              + cell.path("teams").size() + "/" + perCell + (cell.path("draining").asBoolean() ? ":draining" : ""));
        }
        row.add(String.join(",", cells));
      }
      table.add(row);
    }
    return table;
  }

  static String percent(double load) {
    return Math.round(load * 100) + "%";
  }
}
