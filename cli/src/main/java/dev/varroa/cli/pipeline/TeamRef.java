package dev.varroa.cli.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.varroa.cli.bff.BffClient;
import dev.varroa.cli.bff.BffFailure;
import dev.varroa.cli.bff.ClusterAnswers;
import dev.varroa.cli.input.InvalidInputException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** Where a Team named on the command line is: its cluster, namespace and name. */
record TeamRef(String cluster, String namespace, String name) {

  private static final Pattern DNS1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

  String describe() {
    return namespace + "/" + name + " in cluster " + cluster;
  }

  /**
   * The Team as given: with both --cluster and -n nothing is looked up (a caller who may trigger pipelines need not
   * list teams); otherwise the one Team of that name GET /teams shows, narrowed by what was given.
   */
  static TeamRef resolve(BffClient client, String name, String cluster, String namespace, PrintWriter err) {
    if (cluster != null && !DNS1123_LABEL.matcher(cluster).matches()) {
      throw new InvalidInputException("--cluster '" + cluster + "' is not a cluster name (a DNS-1123 label);"
          + " varroactl get clusters lists them");
    }
    if (namespace != null && !DNS1123_LABEL.matcher(namespace).matches()) {
      throw new InvalidInputException("-n '" + namespace + "' is not a namespace name (a DNS-1123 label)");
    }
    if (cluster != null && namespace != null) {
      return new TeamRef(cluster, namespace, name);
    }
    Map<String, String> query = new LinkedHashMap<>();
    query.put("cluster", cluster);
    query.put("namespace", namespace);
    JsonNode answer = client.json("/teams", query);
    List<TeamRef> found = new ArrayList<>();
    for (JsonNode team : answer.path("teams")) {
      if (name.equals(team.path("name").asText())) {
        found.add(new TeamRef(team.path("cluster").asText(), team.path("namespace").asText(), name));
      }
    }
    if (found.size() == 1) {
      return found.get(0);
    }
    if (found.isEmpty()) {
      ClusterAnswers.warnListsMissing(answer, err);
      throw BffFailure.local("Team " + name + " not found" + (namespace == null ? "" : " in namespace " + namespace)
          + (cluster == null ? " in any cluster" : " in cluster " + cluster) + "; varroactl get teams lists them,"
          + " or give both -n and --cluster");
    }
    throw new InvalidInputException("Team " + name + " exists " + found.size() + " times ("
        + String.join(", ", found.stream().map(TeamRef::describe).toList()) + "); give --cluster and -n");
  }
}
