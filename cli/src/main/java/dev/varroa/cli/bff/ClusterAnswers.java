package dev.varroa.cli.bff;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;

/** The {@code clusters: [{name, ok, reason}]} part of a list: every cluster that did not answer is named on stderr. */
public final class ClusterAnswers {

  private ClusterAnswers() {}

  /** "warning: cluster eu-2: list unavailable", one line per cluster with ok: false. */
  public static void warnListsMissing(JsonNode answer, PrintWriter err) {
    for (JsonNode cluster : answer.path("clusters")) {
      if (!cluster.path("ok").asBoolean(true)) {
        err.println("warning: cluster " + cluster.path("name").asText() + ": " + reason(cluster));
      }
    }
    err.flush();
  }

  /** "warning: results incomplete: cluster eu-2 (list unavailable)", one line per cluster with ok: false. */
  public static void warnSearchIncomplete(JsonNode answer, PrintWriter err) {
    for (JsonNode cluster : answer.path("clusters")) {
      if (!cluster.path("ok").asBoolean(true)) {
        err.println("warning: results incomplete: cluster " + cluster.path("name").asText() + " (" + reason(cluster)
            + ")");
      }
    }
    err.flush();
  }

  /** How a list command lays its items out: the items, whether wide, and now (for ages). */
  @FunctionalInterface
  public interface TableOf {
    Table table(JsonNode items, boolean wide, Instant now);
  }

  /**
   * A list across clusters as every {@code get} of the BFF prints it: the BFF's answer as a document, or a table of
   * {@code field}'s items ({@code empty} on stderr when there is none), then a warning per cluster that did not answer.
   */
  public static int printList(CommandSpec spec, ServerOptions server, OutputFormat output, String path,
      Map<String, String> query, String field, TableOf layout, String empty) {
    JsonNode answer = server.client().json(path, query);
    var out = spec.commandLine().getOut();
    if (output.document()) {
      output.printDocument(answer, out);
    } else {
      Table table = layout.table(answer.path(field), output == OutputFormat.wide,
          GetClustersCommand.root(spec).clock().instant());
      if (table.isEmpty()) {
        spec.commandLine().getErr().println(empty);
      } else {
        table.print(out);
      }
    }
    warnListsMissing(answer, spec.commandLine().getErr());
    return 0;
  }

  /** " in namespace N", " in cluster C" as a filter was given; "" for none. */
  public static String where(String what, String value) {
    return value == null ? "" : " in " + what + " " + value;
  }

  private static String reason(JsonNode cluster) {
    String reason = cluster.path("reason").asText("");
    return reason.isEmpty() ? "list unavailable" : reason;
  }
}
