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

/** {@code varroactl get controllers}: the rows every cluster sent; a cluster whose list did not arrive is a warning. */
@Command(name = "controllers", aliases = "controller", mixinStandardHelpOptions = true,
    description = {"Controllers of every registered cluster you may list, with phase, the needs-attention signal and"
        + " bundle.", "A cluster whose list did not arrive is named on stderr (`warning: cluster eu-2: list"
        + " unavailable`) and the command still exits 0 with the other clusters' rows."})
public final class GetControllersCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Option(names = "--cluster", paramLabel = "NAME", description = "Only this cluster's controllers.")
  String cluster;

  @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE", description = "Only this namespace.")
  String namespace;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT",
      description = "table (default); wide adds CLUSTER, REVISION, LAST-APPLY and URL; yaml or json print the BFF's"
          + " answer (items and clusters).")
  OutputFormat output = OutputFormat.table;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Map<String, String> query = new LinkedHashMap<>();
    query.put("cluster", cluster);
    query.put("namespace", namespace);
    JsonNode answer = server.client().json("/controllers", query);
    var out = spec.commandLine().getOut();
    if (output.document()) {
      output.printDocument(answer, out);
    } else {
      Table table = table(answer.path("items"), output == OutputFormat.wide,
          GetClustersCommand.root(spec).clock().instant());
      if (table.isEmpty()) {
        spec.commandLine().getErr().println("No controllers found" + (namespace == null ? "" : " in namespace "
            + namespace) + (cluster == null ? "" : " in cluster " + cluster) + ".");
      } else {
        table.print(out);
      }
    }
    ClusterAnswers.warnListsMissing(answer, spec.commandLine().getErr());
    return 0;
  }

  static Table table(JsonNode items, boolean wide, Instant now) {
    List<String> headers = new ArrayList<>(List.of("NAMESPACE", "NAME", "PHASE", "ATTENTION", "BUNDLE", "AGE"));
    if (wide) {
      headers.addAll(List.of("CLUSTER", "REVISION", "LAST-APPLY", "URL"));
    }
    Table table = new Table(headers);
    for (JsonNode row : items) {
      List<String> cells = new ArrayList<>(List.of(row.path("namespace").asText(), row.path("name").asText(),
          row.path("phase").asText(), row.path("attention").asText(), row.path("bundle").asText(),
          Ages.since(row.path("createdAt").asText(null), now)));
      if (wide) {
        JsonNode apply = row.path("lastApply");
        cells.addAll(List.of(row.path("cluster").asText(), row.path("revision").asText(),
            apply.isObject() ? (apply.path("succeeded").asBoolean() ? "succeeded" : "failed") : "-",
            row.path("url").asText()));
      }
      table.add(cells);
    }
    return table;
  }
}
