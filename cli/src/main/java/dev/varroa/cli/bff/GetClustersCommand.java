package dev.varroa.cli.bff;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code varroactl get clusters}: every registered cluster, the core first. */
@Command(name = "clusters", mixinStandardHelpOptions = true,
    description = "Every registered cluster (the core first, tagged `(core)`): role, health, heartbeat age, operator and"
        + " Kubernetes versions, connected controllers, and a drain's state (Draining with the controllers left, Drained).")
public final class GetClustersCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT",
      description = "table (default), wide, yaml or json (the BFF's answer).")
  OutputFormat output = OutputFormat.table;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    JsonNode answer = server.client().json("/clusters", Map.of());
    var out = spec.commandLine().getOut();
    if (output.document()) {
      output.printDocument(answer, out);
      return 0;
    }
    boolean wide = output == OutputFormat.wide;
    Table table = new Table(wide
        ? List.of("NAME", "ROLE", "HEALTHY", "HEARTBEAT", "OPERATOR", "KUBERNETES", "CONNECTED", "CONTROLLERS", "STATE")
        : List.of("NAME", "ROLE", "HEALTHY", "HEARTBEAT", "OPERATOR", "KUBERNETES", "CONNECTED", "STATE"));
    for (JsonNode c : answer.path("items")) {
      String name = c.path("name").asText() + (c.path("core").asBoolean() ? " (core)" : "");
      List<String> cells = new java.util.ArrayList<>(List.of(name, c.path("role").asText(),
          String.valueOf(c.path("healthy").asBoolean()),
          Ages.of(Duration.ofSeconds(c.path("heartbeatAgeSeconds").asLong())) + " ago",
          c.path("operatorVersion").asText(), c.path("kubernetesVersion").asText(),
          c.path("connectedControllers").asText()));
      if (wide) {
        cells.add(c.path("controllers").asText());
      }
      cells.add(state(c));
      table.add(cells);
    }
    if (table.isEmpty()) {
      spec.commandLine().getErr().println("No clusters are registered (or none you may list).");
    } else {
      table.print(out);
    }
    return 0;
  }

  /** A drain's progress (docs/actions.md): "Draining (3 left)", "Drained", "DrainCancelled", or "-". */
  static String state(JsonNode cluster) {
    String drain = cluster.path("drainState").asText("");
    return switch (drain) {
      case "" -> "-";
      case "Draining" -> "Draining (" + cluster.path("controllers").asInt() + " left)";
      default -> drain;
    };
  }

  static CommandEnvironment root(CommandSpec spec) {
    return (CommandEnvironment) spec.root().userObject();
  }
}
