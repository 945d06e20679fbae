package dev.varroa.cli.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.varroa.cli.bff.BffClient;
import dev.varroa.cli.bff.ServerOptions;
import dev.varroa.cli.input.InvalidInputException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code varroactl run pipeline TEAM/PIPELINE}: the pipeline-run action of POST /actions, optionally followed. */
@Command(name = "pipeline", aliases = "pipelines", mixinStandardHelpOptions = true,
    description = {"Run one of a Team's pipelines on the cell that hosts the Team, waking the cell if it is parked."
        + " Without --follow: prints the request id, the cell, the job and what the wake found, and exits 0 once the"
        + " run is accepted. With --follow: waits for the build to start, prints its console log, and exits with its"
        + " result.",
        "Needs the VarroaRole verb trigger on pipelines in the Team's namespace (and get/watch on runs and logs of the"
            + " cell to --follow). Parameters travel and are stored in the clear: never put a secret in one.",
        "Exit codes: 0 accepted (or SUCCESS with --follow), 1 the server or network gave an error, 2 invalid input,"
            + " 3 conflict (the Team is not placed), 10 FAILURE, 11 UNSTABLE, 12 ABORTED, 13 NOT_BUILT, 14 accepted"
            + " but the build never started (docs/pipelines.md)."})
public final class RunPipelineCommand implements Callable<Integer> {

  /** Exit code of an action the server refused, as Varroactl.EXIT_ERROR. */
  static final int EXIT_ERROR = 1;
  /** Exit code of invalid input, as Varroactl.EXIT_INVALID. */
  static final int EXIT_INVALID = InvalidInputException.EXIT_CODE;
  /** Exit code of a conflict (a Team not placed on a cell), as Varroactl.EXIT_CONFLICT. */
  static final int EXIT_CONFLICT = 3;

  @Mixin ServerOptions server;

  @Parameters(index = "0", paramLabel = "TEAM/PIPELINE",
      description = "The Team and one of its spec.pipelines (varroactl get teams lists the Teams).")
  String teamAndPipeline;

  @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE",
      description = "The Team's namespace; default: the one namespace where a Team of that name exists.")
  String namespace;

  @Option(names = "--cluster", paramLabel = "NAME",
      description = "The Team's cluster; default: the one cluster where a Team of that name exists.")
  String cluster;

  @Option(names = {"-p", "--param"}, paramLabel = "NAME=VALUE",
      description = "A build parameter; repeat for more. The value may contain '='. Never a secret.")
  List<String> params = new ArrayList<>();

  @Option(names = {"-f", "--follow"},
      description = "Wait for the build, print its console log, and exit with its result.")
  boolean follow;

  @Option(names = "--request-id", paramLabel = "UUID",
      description = "The request's id; the same id again answers the first run and starts nothing. Default: new.")
  String requestId;

  @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "30m", converter = WaitDuration.class,
      description = "With --follow, how long to wait for the build to start (the cell may be waking), e.g. 30m,"
          + " 90s, 1h. Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    TeamPipeline target = TeamPipeline.parse(teamAndPipeline);
    Map<String, String> parameters = parameters(params);
    String id = requestId == null ? UUID.randomUUID().toString() : requestId(requestId);
    BffClient client = server.client();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    TeamRef team = TeamRef.resolve(client, target.team(), cluster, namespace, err);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("requestId", id);
    body.put("verb", "pipeline-run");
    body.put("target", Map.of("cluster", team.cluster(), "namespace", team.namespace(), "name", team.name()));
    body.put("pipeline", target.pipeline());
    body.put("parameters", parameters);
    BffClient.Answer answer = client.post("/actions", body);
    if (answer.status() != 200) {
      err.println(answer.failure().text());
      err.flush();
      return switch (answer.status()) {
        case 400 -> EXIT_INVALID;
        case 409 -> EXIT_CONFLICT;
        default -> EXIT_ERROR;
      };
    }
    // with --follow stdout is the console log alone; what was accepted goes beside it
    PrintWriter summary = follow ? err : out;
    printAccepted(answer.body(), team, target.pipeline(), summary);
    if (!follow) {
      return 0;
    }
    return new PipelineRunFollower(client, out, err, timeout).follow(id, answer.body());
  }

  private static void printAccepted(JsonNode accepted, TeamRef team, String pipeline, PrintWriter to) {
    to.println("requestId: " + accepted.path("requestId").asText());
    to.println("team:      " + team.describe());
    to.println("pipeline:  " + pipeline);
    to.println("cell:      " + accepted.path("cellNamespace").asText() + "/" + accepted.path("cell").asText());
    to.println("job:       " + accepted.path("job").asText());
    to.println("wake:      " + accepted.path("wake").asText("-"));
    if (accepted.path("replayed").asBoolean()) {
      to.println("replayed:  true (this request id was answered before; nothing ran again)");
    }
    String message = accepted.path("message").asText();
    if (!message.isEmpty()) {
      to.println(message);
    }
    to.flush();
  }

  /** NAME=VALUE pairs in the order given; a value keeps every '=' after the first. */
  static Map<String, String> parameters(List<String> params) {
    Map<String, String> parameters = new LinkedHashMap<>();
    for (String param : params) {
      int equals = param.indexOf('=');
      if (equals <= 0) {
        throw new InvalidInputException("--param '" + param + "' is not NAME=VALUE: write e.g. --param VERSION=1.4.2"
            + " (an empty value is NAME=)");
      }
      String name = param.substring(0, equals);
      if (parameters.put(name, param.substring(equals + 1)) != null) {
        throw new InvalidInputException("--param " + name + " is given twice; give each parameter once");
      }
    }
    return parameters;
  }

  private static String requestId(String value) {
    try {
      if (UUID.fromString(value).toString().equalsIgnoreCase(value)) {
        return value.toLowerCase(Locale.ROOT);
      }
    } catch (IllegalArgumentException e) {
      // refused below, naming the flag
    }
    throw new InvalidInputException("--request-id '" + value + "' is not a UUID; leave it out for a new one, or"
        + " give the id of the request to retry");
  }
}
