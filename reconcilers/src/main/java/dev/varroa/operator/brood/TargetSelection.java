package dev.varroa.operator.brood;

import dev.varroa.api.v1alpha1.BroodOperationSpec;
import dev.varroa.operator.render.resolve.PodTemplateSelection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Resolves spec.targets over the registered clusters' Controller lists: every field given narrows the selection. Pure:
 * the lists come from the caller, who asked each cluster.
 */
public final class TargetSelection {
  /** Stands for every registered cluster in spec.targets.clusters. */
  public static final String EVERY_CLUSTER = "*";

  /** One cluster's Controller list: it arrived, or why it did not. */
  public sealed interface ClusterList {
    record Arrived(List<ControllerFacts> controllers) implements ClusterList {}

    record Missing(String reason) implements ClusterList {}
  }

  /** The targets in run order (cluster, namespace, name), and the clusters whose list did not arrive. */
  public record Selected(List<TargetRef> targets, Map<String, String> unresolved) {}

  private TargetSelection() {}

  /**
   * The clusters a selection asks for, in name order.
   *
   * @param holding the cluster holding the BroodOperation: the default, and always reachable
   * @param registered the clusters in the registry now
   */
  public static SortedSet<String> clusters(BroodOperationSpec.Targets targets, String holding, Set<String> registered) {
    SortedSet<String> clusters = new TreeSet<>();
    if (targets.clusters == null || targets.clusters.isEmpty()) {
      clusters.add(holding);
      return clusters;
    }
    for (String cluster : targets.clusters) {
      if (EVERY_CLUSTER.equals(cluster)) {
        clusters.addAll(registered);
        clusters.add(holding);
      } else {
        clusters.add(cluster);
      }
    }
    return clusters;
  }

  /** @param lists one entry per cluster of {@link #clusters} */
  public static Selected select(BroodOperationSpec.Targets targets, Map<String, ClusterList> lists) {
    refuseUnknownOperators(targets);
    List<TargetRef> selected = new ArrayList<>();
    Map<String, String> unresolved = new java.util.TreeMap<>();
    for (Map.Entry<String, ClusterList> entry : new java.util.TreeMap<>(lists).entrySet()) {
      if (entry.getValue() instanceof ClusterList.Missing missing) {
        unresolved.put(entry.getKey(), missing.reason());
        continue;
      }
      for (ControllerFacts controller : ((ClusterList.Arrived) entry.getValue()).controllers()) {
        if (matches(targets, controller)) {
          selected.add(new TargetRef(entry.getKey(), controller.namespace(), controller.name()));
        }
      }
    }
    selected.sort(null);
    return new Selected(List.copyOf(selected), unresolved);
  }

  static boolean matches(BroodOperationSpec.Targets targets, ControllerFacts controller) {
    if (targets.namespaces != null && !targets.namespaces.contains(controller.namespace())) {
      return false;
    }
    if (targets.names != null && !targets.names.contains(controller.name())) {
      return false;
    }
    if (targets.phases != null && !targets.phases.contains(controller.phase())) {
      return false;
    }
    return PodTemplateSelection.matches(targets.selector, controller.labels());
  }

  /** An operator the API server takes but no selector knows would match nothing, silently: say so instead. */
  private static void refuseUnknownOperators(BroodOperationSpec.Targets targets) {
    if (targets.selector == null || targets.selector.getMatchExpressions() == null) {
      return;
    }
    for (var requirement : targets.selector.getMatchExpressions()) {
      if (!Set.of("In", "NotIn", "Exists", "DoesNotExist").contains(requirement.getOperator())) {
        throw new InvalidSelection("spec.targets.selector.matchExpressions: operator \"" + requirement.getOperator()
            + "\" is not one of In, NotIn, Exists, DoesNotExist");
      }
    }
  }
}
