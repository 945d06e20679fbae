package dev.varroa.cli.bff;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;

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

  private static String reason(JsonNode cluster) {
    String reason = cluster.path("reason").asText("");
    return reason.isEmpty() ? "list unavailable" : reason;
  }
}
