package dev.varroa.cli.brood;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.varroa.cli.bff.BffClient;
import dev.varroa.cli.bff.BffFailure;
import dev.varroa.cli.bff.ServerOptions;
import dev.varroa.cli.input.InvalidInputException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code varroactl broodop create -f FILE [--dry-run]}: the operator of the target cluster creates the BroodOperation.
 * With --dry-run it is created with spec.dryRun: true, which only resolves the targets; the command waits for that,
 * prints the targets and steps, and deletes it again.
 */
@Command(name = "create", mixinStandardHelpOptions = true,
    description = {"Create a BroodOperation from a manifest in a cluster (default: the core cluster).",
        "--dry-run creates it with spec.dryRun: true, waits until it has resolved its targets, prints them with the"
            + " steps, and deletes it: no Controller is touched."})
public final class BroodOperationCreateCommand implements Callable<Integer> {

  static final String API_VERSION = "varroa.dev/v1alpha1";
  private static final Set<String> FINAL = Set.of("Succeeded", "Failed", "Cancelled");
  private static final Duration POLL = Duration.ofMillis(500);

  @Mixin ServerOptions server;

  @Option(names = {"-f", "--filename"}, required = true, paramLabel = "FILE",
      description = "The BroodOperation manifest (YAML or JSON).")
  Path file;

  @Option(names = "--cluster", paramLabel = "NAME", description = "The cluster to create it in; default: the core.")
  String cluster;

  @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE",
      description = "Its namespace; default: the manifest's metadata.namespace, else default.")
  String namespace;

  @Option(names = "--dry-run", description = "List the targets and steps without touching anything (see above).")
  boolean dryRun;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "120",
      description = "With --dry-run: how long to wait for the targets to be resolved (default ${DEFAULT-VALUE}).")
  int timeoutSeconds;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException, InterruptedException {
    Map<String, Object> manifest = manifest();
    @SuppressWarnings("unchecked")
    Map<String, Object> metadata = (Map<String, Object>) manifest.get("metadata");
    String declared = metadata.get("namespace") == null ? null : String.valueOf(metadata.get("namespace"));
    if (namespace != null && declared != null && !namespace.equals(declared)) {
      throw new InvalidInputException(file + ": metadata.namespace is " + declared + " but -n says " + namespace
          + "; drop one or make them agree");
    }
    String target = namespace != null ? namespace : declared != null ? declared : "default";
    String text;
    if (dryRun) {
      @SuppressWarnings("unchecked")
      Map<String, Object> specPart = (Map<String, Object>) manifest.computeIfAbsent("spec",
          k -> new LinkedHashMap<>());
      specPart.put("dryRun", true);
      try {
        text = BffClientJson.write(manifest);
      } catch (JsonProcessingException e) {
        throw new InvalidInputException(file + ": cannot be written back as JSON: " + e.getOriginalMessage());
      }
    } else {
      text = Files.readString(file);
    }
    OperationRef.check(String.valueOf(metadata.get("name")), cluster, target);
    BffClient client = server.client();
    String into = cluster != null ? cluster : coreCluster(client);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    int[] exit = {0};
    var created = BroodActions.send(client, "broodop-create", into, target, String.valueOf(metadata.get("name")),
        text, err, exit);
    if (created.isEmpty()) {
      return exit[0];
    }
    JsonNode where = created.get().path("target");
    OperationRef ref = new OperationRef(into, where.path("namespace").asText(target), where.path("name").asText());
    if (!dryRun) {
      out.println(created.get().path("message").asText());
      out.println("Follow it with: varroactl broodop get " + ref.name() + " --cluster " + ref.cluster() + " -n "
          + ref.namespace());
      out.flush();
      return 0;
    }
    return dryRun(client, ref, out, err);
  }

  private int dryRun(BffClient client, OperationRef ref, PrintWriter out, PrintWriter err)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
    JsonNode answer = null;
    try {
      while (System.nanoTime() < deadline) {
        answer = client.json(ref.path(), Map.of());
        if (FINAL.contains(answer.path("operation").path("status").path("phase").asText())) {
          break;
        }
        answer = null;
        Thread.sleep(POLL.toMillis());
      }
    } finally {
      int[] exit = {0};
      // the dry run is removed whatever happened: it served only to list the targets
      BroodActions.send(client, "broodop-delete", ref.cluster(), ref.namespace(), ref.name(), null, err, exit);
    }
    if (answer == null) {
      err.println("error: the dry run " + ref.describe() + " did not resolve its targets within " + timeoutSeconds
          + " s (is the operator of cluster " + ref.cluster() + " running?); it was deleted, nothing was touched");
      err.flush();
      return BroodActions.EXIT_ERROR;
    }
    out.println("Dry run: nothing was touched; the operation was deleted again.");
    BroodOperationGetCommand.print(ref.cluster(), answer.path("operation"), out);
    return 0;
  }

  /** The one BroodOperation the file holds; anything else is refused here, before the server is asked. */
  private Map<String, Object> manifest() throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new InvalidInputException(file + ": no such file");
    }
    List<Object> documents = new ArrayList<>();
    try {
      new Load(LoadSettings.builder().build()).loadAllFromString(Files.readString(file)).forEach(d -> {
        if (d != null) {
          documents.add(d);
        }
      });
    } catch (RuntimeException e) {
      throw new InvalidInputException(file + ": not YAML: " + e.getMessage());
    }
    if (documents.size() != 1 || !(documents.get(0) instanceof Map<?, ?> object)) {
      throw new InvalidInputException(file + ": holds " + documents.size() + " documents; broodop create takes exactly"
          + " one BroodOperation");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> manifest = new LinkedHashMap<>((Map<String, Object>) object);
    if (!"BroodOperation".equals(manifest.get("kind")) || !API_VERSION.equals(manifest.get("apiVersion"))) {
      throw new InvalidInputException(file + ": is a " + manifest.get("kind") + " (" + manifest.get("apiVersion")
          + "), not a BroodOperation; broodop create takes only apiVersion " + API_VERSION + ", kind BroodOperation");
    }
    if (!(manifest.get("metadata") instanceof Map<?, ?> metadata) || metadata.get("name") == null) {
      throw new InvalidInputException(file + ": the BroodOperation has no metadata.name; name it");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) metadata);
    manifest.put("metadata", copy);
    if (manifest.get("spec") instanceof Map<?, ?> specPart) {
      @SuppressWarnings("unchecked")
      Map<String, Object> specCopy = new LinkedHashMap<>((Map<String, Object>) specPart);
      manifest.put("spec", specCopy);
    }
    return manifest;
  }

  /** The core cluster, as GET /clusters marks it. */
  private static String coreCluster(BffClient client) {
    JsonNode clusters;
    try {
      clusters = client.json("/clusters", Map.of());
    } catch (BffFailure e) {
      throw BffFailure.local("cannot find the core cluster to create the operation in (" + e.getMessage()
          + "); give --cluster");
    }
    for (JsonNode item : clusters.path("items")) {
      if (item.path("core").asBoolean()) {
        return item.path("name").asText();
      }
    }
    throw BffFailure.local("no core cluster is registered; give --cluster (varroactl get clusters)");
  }

  /** JSON text of the manifest, for the dry run's changed copy. */
  private static final class BffClientJson {
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
        new com.fasterxml.jackson.databind.ObjectMapper();

    static String write(Object value) throws JsonProcessingException {
      return JSON.writeValueAsString(value);
    }
  }
}
