package dev.varroa.cli.cell;

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

/** Where a CellPool named on the command line is: its cluster, namespace and name, and its replicas now. */
record CellPoolRef(String cluster, String namespace, String name, int replicas) {

  private static final Pattern DNS1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
  private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(
      "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  String describe() {
    return namespace + "/" + name + " in cluster " + cluster;
  }

  /**
   * The pool by name, narrowed by --cluster and -n when given: the one pool of that name GET /cells shows (two of that
   * name are refused, naming where they are). Reading the list first also makes a pool the caller may not see a 404.
   */
  static CellPoolRef resolve(BffClient client, String name, String cluster, String namespace, PrintWriter err) {
    check(name, cluster, namespace);
    Map<String, String> query = new LinkedHashMap<>();
    query.put("cluster", cluster);
    query.put("namespace", namespace);
    JsonNode answer = client.json("/cells", query);
    List<CellPoolRef> found = new ArrayList<>();
    for (JsonNode pool : answer.path("pools")) {
      if (name.equals(pool.path("name").asText())) {
        found.add(new CellPoolRef(pool.path("cluster").asText(), pool.path("namespace").asText(), name,
            pool.path("replicas").asInt()));
      }
    }
    if (found.size() == 1) {
      return found.get(0);
    }
    if (found.isEmpty()) {
      // a cluster that did not answer may hold it: say so before the not-found
      ClusterAnswers.warnListsMissing(answer, err);
      throw BffFailure.local("CellPool " + name + " not found" + (namespace == null ? "" : " in namespace "
          + namespace) + (cluster == null ? " in any cluster" : " in cluster " + cluster)
          + "; varroactl get cellpools lists them");
    }
    throw new InvalidInputException("CellPool " + name + " exists " + found.size() + " times ("
        + String.join(", ", found.stream().map(CellPoolRef::describe).toList()) + "); give --cluster and -n");
  }

  static void check(String name, String cluster, String namespace) {
    if (name.length() > 253 || !DNS1123_SUBDOMAIN.matcher(name).matches()) {
      throw new InvalidInputException("'" + name + "' is not a CellPool name (a DNS-1123 subdomain)");
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
