package dev.varroa.cli.actions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.varroa.cli.bff.BffClient;
import dev.varroa.cli.bff.ServerOptions;
import dev.varroa.cli.input.InvalidInputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code varroactl drain cluster <member> [--cancel] [--yes]} (seed 002 "Drain or remove a member"). */
@Command(name = "cluster", mixinStandardHelpOptions = true,
    description = "Delete every Controller of a member cluster and their resources, one by one; --cancel stops a drain"
        + " (what was deleted stays deleted). Says first that JENKINS_HOME is not migrated and what each volume's"
        + " reclaim policy does, then asks for the cluster's name unless --yes. The core cluster is never drained.")
public final class DrainClusterCommand implements Callable<Integer> {

  /** Exit code of a conflict (the core cluster, nothing to cancel), as Varroactl.EXIT_CONFLICT. */
  static final int EXIT_CONFLICT = 3;
  /** Exit code of an action the server refused or an unconfirmed drain, as Varroactl.EXIT_ERROR. */
  static final int EXIT_ERROR = 1;
  private static final Pattern DNS1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

  @Mixin ServerOptions server;

  @Parameters(index = "0", paramLabel = "MEMBER", description = "The member cluster (varroactl get clusters).")
  String cluster;

  @Option(names = "--cancel", description = "Stop the drain under way; Controllers already deleted stay deleted.")
  boolean cancel;

  @Option(names = {"-y", "--yes"}, description = "Do not ask for confirmation.")
  boolean yes;

  @Option(names = "--request-id", paramLabel = "UUID",
      description = "The action's id; default a fresh UUID. Send the same id again to retry without a second run.")
  String requestId;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    if (!DNS1123_LABEL.matcher(cluster).matches()) {
      throw new InvalidInputException("cluster name '" + cluster + "' is not a DNS-1123 label; varroactl get clusters"
          + " lists the registered clusters");
    }
    String id = requestId == null ? UUID.randomUUID().toString() : requestId;
    try {
      UUID.fromString(id);
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException("--request-id '" + id + "' is not a UUID");
    }
    BffClient client = server.client();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (!cancel) {
      BffClient.Answer preview = client.post("/actions", body(UUID.randomUUID().toString(), "drain", true));
      if (preview.status() != 200) {
        return refused(preview, err);
      }
      DrainWarning.lines(cluster, preview.body()).forEach(out::println);
      out.flush();
      if (!yes && !confirmed(out)) {
        err.println("error: not confirmed; nothing was drained (type the cluster name, or pass --yes)");
        return EXIT_ERROR;
      }
    }
    BffClient.Answer answer = client.post("/actions", body(id, cancel ? "cancel-drain" : "drain", false));
    if (answer.status() != 200) {
      return refused(answer, err);
    }
    JsonNode result = answer.body();
    out.println("cluster " + cluster + ": " + result.path("message").asText()
        + (result.path("replayed").asBoolean() ? " (request " + id + " was already answered; nothing ran again)" : ""));
    if (!cancel) {
      out.println("Follow it with: varroactl get clusters (request id " + id + ")");
    }
    return 0;
  }

  private boolean confirmed(PrintWriter out) throws IOException {
    out.print("Type the cluster name (" + cluster + ") to drain it: ");
    out.flush();
    String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    return line != null && line.strip().equals(cluster);
  }

  private Map<String, Object> body(String id, String verb, boolean preview) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("requestId", id);
    body.put("verb", verb);
    body.put("target", Map.of("cluster", cluster));
    body.put("preview", preview);
    return body;
  }

  /** A 409 is a conflict (exit 3); every other refusal is the server's error (exit 1), in kubectl's words. */
  private static int refused(BffClient.Answer answer, PrintWriter err) {
    err.println(answer.failure().text());
    err.flush();
    return answer.status() == 409 ? EXIT_CONFLICT : EXIT_ERROR;
  }
}
