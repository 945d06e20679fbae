package dev.varroa.cli.brood;

import com.fasterxml.jackson.databind.JsonNode;
import dev.varroa.cli.bff.BffClient;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The broodop verbs of POST /actions (docs/actions.md), as the commands send them. */
final class BroodActions {

  /** Exit code of a conflict (finished, cancelled, already exists), as Varroactl.EXIT_CONFLICT. */
  static final int EXIT_CONFLICT = 3;
  /** Exit code of an action the server refused, as Varroactl.EXIT_ERROR. */
  static final int EXIT_ERROR = 1;

  private BroodActions() {}

  /** The result body, or empty after printing the refusal on stderr; {@code exit} then says the exit code. */
  static Optional<JsonNode> send(BffClient client, String verb, String cluster, String namespace, String name,
      String manifest, PrintWriter err, int[] exit) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("requestId", UUID.randomUUID().toString());
    body.put("verb", verb);
    Map<String, Object> target = new LinkedHashMap<>();
    target.put("cluster", cluster);
    target.put("namespace", namespace);
    if (name != null) {
      target.put("name", name);
    }
    body.put("target", target);
    if (manifest != null) {
      body.put("manifest", manifest);
    }
    BffClient.Answer answer = client.post("/actions", body);
    if (answer.status() == 200) {
      return Optional.of(answer.body());
    }
    err.println(answer.failure().text());
    err.flush();
    exit[0] = answer.status() == 409 ? EXIT_CONFLICT : EXIT_ERROR;
    return Optional.empty();
  }
}
