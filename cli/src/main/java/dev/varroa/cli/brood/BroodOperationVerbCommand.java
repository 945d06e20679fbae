package dev.varroa.cli.brood;

import dev.varroa.cli.bff.BffClient;
import dev.varroa.cli.bff.ServerOptions;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** pause, resume and cancel: one BroodOperation by name, one action, its message printed. */
abstract class BroodOperationVerbCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(index = "0", paramLabel = "NAME", description = "The BroodOperation (varroactl broodop list).")
  String name;

  @Option(names = "--cluster", paramLabel = "NAME",
      description = "The cluster holding it; default: the one cluster where an operation of that name exists.")
  String cluster;

  @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE",
      description = "Its namespace; default: the one namespace where an operation of that name exists.")
  String namespace;

  @Spec CommandSpec spec;

  abstract String verb();

  @Override
  public Integer call() {
    BffClient client = server.client();
    var err = spec.commandLine().getErr();
    OperationRef ref = OperationRef.resolve(client, name, cluster, namespace, err);
    int[] exit = {0};
    var result = BroodActions.send(client, verb(), ref.cluster(), ref.namespace(), ref.name(), null, err, exit);
    if (result.isEmpty()) {
      return exit[0];
    }
    spec.commandLine().getOut().println(result.get().path("message").asText());
    spec.commandLine().getOut().flush();
    return 0;
  }
}
