package dev.varroa.cli.brood;

import com.fasterxml.jackson.databind.JsonNode;
import dev.varroa.cli.bff.BffClient;
import dev.varroa.cli.bff.OutputFormat;
import dev.varroa.cli.bff.ServerOptions;
import dev.varroa.cli.bff.Table;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code varroactl broodop get NAME}: the operation's phase and counts, then every target with its step and result. */
@Command(name = "get", mixinStandardHelpOptions = true,
    description = "One BroodOperation: its phase, counts and steps, then every target with the step it is at and the"
        + " result of each step it started.")
public final class BroodOperationGetCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(index = "0", paramLabel = "NAME", description = "The BroodOperation (varroactl broodop list).")
  String name;

  @Option(names = "--cluster", paramLabel = "NAME",
      description = "The cluster holding it; default: the one cluster where an operation of that name exists.")
  String cluster;

  @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE",
      description = "Its namespace; default: the one namespace where an operation of that name exists.")
  String namespace;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT",
      description = "table (default); yaml or json print the BFF's answer (cluster and the whole operation).")
  OutputFormat output = OutputFormat.table;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    BffClient client = server.client();
    OperationRef ref = OperationRef.resolve(client, name, cluster, namespace, spec.commandLine().getErr());
    JsonNode answer = client.json(ref.path(), Map.of());
    PrintWriter out = spec.commandLine().getOut();
    if (output.document()) {
      output.printDocument(answer, out);
    } else {
      print(answer.path("cluster").asText(), answer.path("operation"), out);
    }
    return 0;
  }

  /** The summary lines, then the targets' table; shared with create --dry-run. */
  static void print(String cluster, JsonNode operation, PrintWriter out) {
    JsonNode status = operation.path("status");
    JsonNode counts = status.path("counts");
    List<String> steps = steps(operation);
    out.println("Name:       " + operation.path("metadata").path("namespace").asText() + "/"
        + operation.path("metadata").path("name").asText());
    out.println("Cluster:    " + cluster);
    out.println("Phase:      " + status.path("phase").asText("-") + (status.path("dryRun").asBoolean()
        ? " (dry run: nothing was touched)" : ""));
    if (!status.path("message").asText().isEmpty()) {
      out.println("Message:    " + status.path("message").asText());
    }
    out.println("Steps:      " + String.join(" -> ", steps));
    out.println("Targets:    " + counts.path("total").asInt() + " (succeeded " + counts.path("succeeded").asInt()
        + ", failed " + counts.path("failed").asInt() + ", running " + counts.path("running").asInt() + ", paused "
        + counts.path("paused").asInt() + ", pending " + counts.path("pending").asInt() + ", unknown "
        + counts.path("unknown").asInt() + ", cancelled " + counts.path("cancelled").asInt() + ")");
    for (JsonNode problem : status.path("unresolvedClusters")) {
      out.println("Unresolved: cluster " + problem.path("cluster").asText() + ": " + problem.path("reason").asText());
    }
    out.println();
    Table table = new Table(List.of("CLUSTER", "NAMESPACE", "NAME", "PHASE", "STEP", "RESULTS", "MESSAGE"));
    for (JsonNode target : status.path("targets")) {
      List<String> results = new ArrayList<>();
      target.path("steps").forEach(s -> results.add(s.path("type").asText() + ":" + s.path("phase").asText()));
      int step = target.path("step").asInt(-1);
      table.add(List.of(target.path("cluster").asText(), target.path("namespace").asText(),
          target.path("name").asText(), target.path("phase").asText(),
          step >= 0 && step < steps.size() ? (step + 1) + "/" + steps.size() + " " + steps.get(step) : "",
          String.join(" ", results), target.path("message").asText()));
    }
    if (table.isEmpty()) {
      out.println("No targets resolved yet.");
    } else {
      table.print(out);
    }
    out.flush();
  }

  private static List<String> steps(JsonNode operation) {
    List<String> steps = new ArrayList<>();
    JsonNode fromStatus = operation.path("status").path("steps");
    if (fromStatus.isArray() && !fromStatus.isEmpty()) {
      fromStatus.forEach(s -> steps.add(s.asText()));
    } else {
      operation.path("spec").path("steps").forEach(s -> steps.add(s.path("type").asText()));
    }
    return steps;
  }
}
