package dev.varroa.cli.brood;

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

/** Where a BroodOperation named on the command line is: its cluster, namespace and name. */
record OperationRef(String cluster, String namespace, String name) {

  private static final Pattern DNS1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
  private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(
      "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  String path() {
    return "/broodoperations/" + cluster + "/" + namespace + "/" + name;
  }

  String describe() {
    return namespace + "/" + name + " in cluster " + cluster;
  }

  /**
   * The operation by name, with --cluster and -n when given; without them, the one operation of that name the list
   * across clusters shows (two of that name are refused, naming where they are).
   */
  static OperationRef resolve(BffClient client, String name, String cluster, String namespace, PrintWriter err) {
    check(name, cluster, namespace);
    if (cluster != null && namespace != null) {
      return new OperationRef(cluster, namespace, name);
    }
    Map<String, String> query = new LinkedHashMap<>();
    query.put("cluster", cluster);
    query.put("namespace", namespace);
    JsonNode answer = client.json("/broodoperations", query);
    List<OperationRef> found = new ArrayList<>();
    for (JsonNode row : answer.path("operations")) {
      if (name.equals(row.path("name").asText())) {
        found.add(new OperationRef(row.path("cluster").asText(), row.path("namespace").asText(), name));
      }
    }
    if (found.size() == 1) {
      return found.get(0);
    }
    if (found.isEmpty()) {
      // a cluster that did not answer may hold it: say so before the not-found
      ClusterAnswers.warnListsMissing(answer, err);
      throw BffFailure.local("BroodOperation " + name + " not found" + (namespace == null ? "" : " in namespace "
          + namespace) + (cluster == null ? " in any cluster" : " in cluster " + cluster)
          + "; varroactl broodop list lists them");
    }
    throw new InvalidInputException("BroodOperation " + name + " exists " + found.size() + " times ("
        + String.join(", ", found.stream().map(OperationRef::describe).toList()) + "); give --cluster and -n");
  }

  static void check(String name, String cluster, String namespace) {
    if (name.length() > 253 || !DNS1123_SUBDOMAIN.matcher(name).matches()) {
      throw new InvalidInputException("'" + name + "' is not a BroodOperation name (a DNS-1123 subdomain)");
    }
    if (cluster != null && !DNS1123_LABEL.matcher(cluster).matches()) {
      throw new InvalidInputException("--cluster '" + cluster + "' is not a cluster name (a DNS-1123 label);"
          + " varroactl get clusters lists them");
    }
    if (namespace != null && !DNS1123_LABEL.matcher(namespace).matches()) {
      throw new InvalidInputException("-n '" + namespace + "' is not a namespace name (a DNS-1123 label)");
    }
  }
}
