package dev.varroa.cli.brood;

import com.fasterxml.jackson.databind.JsonNode;
import dev.varroa.cli.bff.Ages;
import dev.varroa.cli.bff.ClusterAnswers;
import dev.varroa.cli.bff.CommandEnvironment;
import dev.varroa.cli.bff.OutputFormat;
import dev.varroa.cli.bff.ServerOptions;
import dev.varroa.cli.bff.Table;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code varroactl broodop list}: every BroodOperation; a cluster whose list did not arrive is a warning. */
@Command(name = "list", aliases = "ls", mixinStandardHelpOptions = true,
    description = {"BroodOperations of every registered cluster you may list, with phase and progress.",
        "A cluster whose list did not arrive is named on stderr (`warning: cluster eu-2: list unavailable`) and the"
            + " command still exits 0 with the other clusters' rows."})
public final class BroodOperationListCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Option(names = "--cluster", paramLabel = "NAME", description = "Only this cluster's operations.")
  String cluster;

  @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE", description = "Only this namespace.")
  String namespace;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT",
      description = "table (default); wide adds MESSAGE and STARTED; yaml or json print the BFF's answer (operations"
          + " and clusters).")
  OutputFormat output = OutputFormat.table;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Map<String, String> query = new LinkedHashMap<>();
    query.put("cluster", cluster);
    query.put("namespace", namespace);
    JsonNode answer = server.client().json("/broodoperations", query);
    var out = spec.commandLine().getOut();
    if (output.document()) {
      output.printDocument(answer, out);
    } else {
      Table table = table(answer.path("operations"), output == OutputFormat.wide,
          ((CommandEnvironment) spec.root().userObject()).clock().instant());
      if (table.isEmpty()) {
        spec.commandLine().getErr().println("No brood operations found" + (namespace == null ? ""
            : " in namespace " + namespace) + (cluster == null ? "" : " in cluster " + cluster) + ".");
      } else {
        table.print(out);
      }
    }
    ClusterAnswers.warnListsMissing(answer, spec.commandLine().getErr());
    return 0;
  }

  static Table table(JsonNode operations, boolean wide, Instant now) {
    List<String> headers = new java.util.ArrayList<>(List.of("CLUSTER", "NAMESPACE", "NAME", "PHASE", "PROGRESS",
        "FAILED", "STEPS", "SCHEDULE", "AGE"));
    if (wide) {
      headers.addAll(List.of("STARTED", "MESSAGE"));
    }
    Table table = new Table(headers);
    for (JsonNode row : operations) {
      JsonNode counts = row.path("counts");
      List<String> steps = new java.util.ArrayList<>();
      row.path("steps").forEach(s -> steps.add(s.asText()));
      String phase = row.path("phase").asText();
      List<String> cells = new java.util.ArrayList<>(List.of(row.path("cluster").asText(),
          row.path("namespace").asText(), row.path("name").asText(),
          (phase.isEmpty() ? "-" : phase) + (row.path("dryRun").asBoolean() ? " (dry run)" : ""),
          counts.path("succeeded").asInt() + "/" + counts.path("total").asInt(),
          String.valueOf(counts.path("failed").asInt()), String.join(",", steps),
          row.path("schedule").asText(""), Ages.since(row.path("createdAt").asText(null), now)));
      if (wide) {
        cells.addAll(List.of(row.path("startedAt").asText(""), row.path("message").asText()));
      }
      table.add(cells);
    }
    return table;
  }
}
