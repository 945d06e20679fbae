package dev.varroa.operator.cell;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * networkPolicy.cellIsolation: where a cell may connect to besides the update centers the operator runs. The chart
 * composes the list (DNS, the gateways, the API server for agents, the object store, extraEgress) and hands it over
 * as JSON in {@value #ENV}.
 */
public record CellIsolation(List<NetworkPolicyEgressRule> egress) {
  public static final String ENV = "VARROA_CELL_ISOLATION";
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  public CellIsolation {
    egress = List.copyOf(egress);
  }

  /** Empty when cell isolation is off (the variable unset or blank). */
  public static Optional<CellIsolation> fromEnv(Map<String, String> env) {
    String json = env.getOrDefault(ENV, "").strip();
    if (json.isEmpty()) {
      return Optional.empty();
    }
    try {
      NetworkPolicyEgressRule[] rules = JSON.unmarshal(json, NetworkPolicyEgressRule[].class);
      return Optional.of(new CellIsolation(List.of(rules)));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(ENV + " is not a JSON list of NetworkPolicy egress rules (" + e.getMessage()
          + "); fix: set networkPolicy.cellIsolation.extraEgress to a list of egress rules, as in"
          + " networkPolicy.operator.extraEgress", e);
    }
  }
}
