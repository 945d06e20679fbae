package dev.varroa.cli.bff;

import com.fasterxml.jackson.databind.JsonNode;
import dev.varroa.cli.input.InvalidInputException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code varroactl logs NAMESPACE/CONTROLLER JOB BUILD [-f]}: one run's console log, by range, then live. */
@Command(name = "logs", mixinStandardHelpOptions = true,
    description = {"Prints the console log of one build: finds the run (GET /runs), reads its log in ranges and with"
        + " -f follows it live (GET /runs/{runId}/log/stream) until the build ends.",
        "Needs the build record store. Exit codes: 0 printed, 1 no such run, or the server or network gave an error,"
            + " 2 invalid arguments."})
public final class LogsCommand implements Callable<Integer> {

  @Mixin ServerOptions server;

  @Parameters(index = "0", paramLabel = "NAMESPACE/CONTROLLER", description = "The Controller the job runs on.")
  String controller;

  @Parameters(index = "1", paramLabel = "JOB", description = "The job's full name (folder/name).")
  String job;

  @Parameters(index = "2", paramLabel = "BUILD", description = "The build number.")
  long build;

  @Option(names = {"-f", "--follow"}, description = "Keep printing while the build runs, until its log is complete.")
  boolean follow;

  @Option(names = "--cluster", paramLabel = "NAME", description = "The Controller's cluster; default: the core.")
  String cluster;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    int slash = controller.indexOf('/');
    if (slash <= 0 || slash == controller.length() - 1 || controller.indexOf('/', slash + 1) >= 0) {
      throw new InvalidInputException(controller + ": give the Controller as NAMESPACE/NAME, e.g. team-a/orders");
    }
    if (build < 1) {
      throw new InvalidInputException("BUILD " + build + ": a build number is 1 or more");
    }
    String namespace = controller.substring(0, slash);
    String name = controller.substring(slash + 1);
    BffClient client = server.client();
    Map<String, String> query = new LinkedHashMap<>();
    query.put("cluster", cluster);
    query.put("namespace", namespace);
    query.put("controller", name);
    query.put("job", job);
    query.put("build", Long.toString(build));
    query.put("limit", "1");
    JsonNode runs = client.json("/runs", query);
    if (runs.path("items").isEmpty()) {
      throw BffFailure.local("no run of job " + job + " #" + build + " on Controller " + namespace + "/" + name
          + (cluster == null ? "" : " in cluster " + cluster) + " is recorded"
          + (runs.path("recordStore").asBoolean(true) ? "" : ": the build record store is not enabled on this Varroa"));
    }
    new ConsoleLogPrinter(client, spec.commandLine().getOut()).print(runs.path("items").get(0).path("runId").asText(),
        follow);
    return 0;
  }
}
