package dev.varroa.plugin.calls;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The step's arguments, checked before anything travels: {@code team} ("name" or "namespace/name"),
 * {@code pipeline}, {@code cluster} (empty: the calling cell's cluster), {@code parameters} and {@code timeoutMinutes}.
 */
public record PipelineCallArguments(String team, String pipeline, String cluster, Map<String, String> parameters,
    Duration timeout) {

  public static final String STEP = "varroaRunPipeline";
  public static final int DEFAULT_TIMEOUT_MINUTES = 60;
  // A namespace is an RFC 1123 label; a Team's and a cluster's names may hold dots too (as spec.callableBy reads them).
  private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
  private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");

  public PipelineCallArguments {
    parameters = Map.copyOf(parameters);
  }

  /** Checks the step's arguments; an {@link IllegalArgumentException} names the argument and the fix. */
  public static PipelineCallArguments of(String team, String pipeline, String cluster, Map<String, ?> parameters,
      Integer timeoutMinutes) {
    String calledTeam = team == null ? "" : team.strip();
    if (calledTeam.isEmpty()) {
      throw invalid("team is empty: name the called Team, team: 'name' (a Team of your Team's namespace) or"
          + " team: 'namespace/name'");
    }
    String[] parts = calledTeam.split("/", -1);
    boolean named = parts.length == 1 ? NAME.matcher(parts[0]).matches()
        : parts.length == 2 && NAMESPACE.matcher(parts[0]).matches() && NAME.matcher(parts[1]).matches();
    if (!named) {
      throw invalid("team '" + calledTeam + "' is not 'name' or 'namespace/name' of Kubernetes names (lower case"
          + " letters, digits and '-')");
    }
    String calledPipeline = pipeline == null ? "" : pipeline.strip();
    if (calledPipeline.isEmpty()) {
      throw invalid("pipeline is empty: name one of the called Team's spec.pipelines, pipeline: 'deploy'");
    }
    String calledCluster = cluster == null ? "" : cluster.strip();
    if (!calledCluster.isEmpty() && !NAME.matcher(calledCluster).matches()) {
      throw invalid("cluster '" + calledCluster + "' is no cluster name; leave it out to call in your own cluster");
    }
    Map<String, String> values = new LinkedHashMap<>();
    if (parameters != null) {
      for (Map.Entry<String, ?> parameter : parameters.entrySet()) {
        if (parameter.getKey() == null || parameter.getKey().isBlank()) {
          throw invalid("parameters has an empty name: write parameters: [NAME: 'value']");
        }
        if (parameter.getValue() == null) {
          throw invalid("parameters." + parameter.getKey() + " has no value: give it one, or leave it out");
        }
        values.put(parameter.getKey(), String.valueOf(parameter.getValue()));
      }
    }
    int minutes = timeoutMinutes == null ? DEFAULT_TIMEOUT_MINUTES : timeoutMinutes;
    if (minutes <= 0) {
      throw invalid("timeoutMinutes is " + minutes + ": give a number of minutes above 0, or leave it out for "
          + DEFAULT_TIMEOUT_MINUTES);
    }
    return new PipelineCallArguments(calledTeam, calledPipeline, calledCluster, values, Duration.ofMinutes(minutes));
  }

  private static IllegalArgumentException invalid(String why) {
    return new IllegalArgumentException(STEP + ": " + why);
  }
}
