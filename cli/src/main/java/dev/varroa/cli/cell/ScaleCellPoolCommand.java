package dev.varroa.cli.cell;

import dev.varroa.cli.bff.BffClient;
import dev.varroa.cli.bff.ServerOptions;
import dev.varroa.cli.input.InvalidInputException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code varroactl scale cellpool NAME --replicas N}: the cellpool-scale action of POST /actions. */
@Command(name = "cellpool", aliases = "cellpools", mixinStandardHelpOptions = true,
    description = {"Set a CellPool's spec.replicas (its scale subresource), on the cluster that holds it. Scaling"
        + " down moves the teams of the cells that go to the cells that stay before a cell is deleted.",
        "Needs the VarroaRole verb update on cellpools in the pool's namespace. Where the pool's replicas are kept in"
            + " Git, the GitOps tool would put them back: see docs/cells.md."})
public final class ScaleCellPoolCommand implements Callable<Integer> {

  /** The CRD's bound on spec.replicas. */
  static final int MAX_REPLICAS = 500;
  /** Exit code of an action the server refused, as Varroactl.EXIT_ERROR. */
  static final int EXIT_ERROR = 1;

  @Mixin ServerOptions server;

  @Parameters(index = "0", paramLabel = "NAME", description = "The CellPool (varroactl get cellpools).")
  String name;

  @Option(names = "--replicas", required = true, paramLabel = "N", description = "The number of cells, 0 to 500.")
  int replicas;

  @Option(names = "--cluster", paramLabel = "NAME",
      description = "The cluster holding it; default: the one cluster where a pool of that name exists.")
  String cluster;

  @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE",
      description = "Its namespace; default: the one namespace where a pool of that name exists.")
  String namespace;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (replicas < 0 || replicas > MAX_REPLICAS) {
      throw new InvalidInputException("--replicas " + replicas + " is not a number of cells: give 0 to "
          + MAX_REPLICAS);
    }
    BffClient client = server.client();
    var err = spec.commandLine().getErr();
    CellPoolRef pool = CellPoolRef.resolve(client, name, cluster, namespace, err);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("requestId", UUID.randomUUID().toString());
    body.put("verb", "cellpool-scale");
    body.put("target", Map.of("cluster", pool.cluster(), "namespace", pool.namespace(), "name", pool.name()));
    body.put("replicas", replicas);
    BffClient.Answer answer = client.post("/actions", body);
    if (answer.status() != 200) {
      err.println(answer.failure().text());
      err.flush();
      return EXIT_ERROR;
    }
    spec.commandLine().getOut().println(answer.body().path("message").asText());
    spec.commandLine().getOut().flush();
    return 0;
  }
}
