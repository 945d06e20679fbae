package dev.varroa.dashboard.actions;

import dev.varroa.dashboard.access.Target;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * Where a BroodOperation's spec.targets can reach, as the places a caller must be allowed to act: every targeted
 * namespace of every targeted cluster, or the whole cluster when namespaces are omitted. A grant to create
 * BroodOperations in one namespace must not restart Controllers in another. Pure: read from the manifest alone.
 */
public final class BroodTargetReach {
  /** spec.targets.clusters' word for every registered cluster, now or later: only an unscoped grant covers it. */
  static final String EVERY_CLUSTER = "*";

  private BroodTargetReach() {}

  /**
   * @param manifest the BroodOperation as YAML or JSON text
   * @param holdingCluster the cluster the operation is created in: the default of spec.targets.clusters
   */
  public static List<Target> of(String manifest, String holdingCluster) throws ActionRefused {
    Object document;
    try {
      document = new Load(LoadSettings.builder().setMaxAliasesForCollections(10).build()).loadFromString(manifest);
    } catch (YamlEngineException e) {
      throw ActionRefused.badField("manifest", "the manifest cannot be read as YAML or JSON: " + firstLine(e)
          + "; give one BroodOperation");
    }
    Map<?, ?> targets = map(map(document, "manifest").get("spec"), "spec");
    targets = map(targets.get("targets"), "spec.targets");
    Set<String> clusters = new LinkedHashSet<>(strings(targets.get("clusters"), "spec.targets.clusters"));
    if (clusters.isEmpty()) {
      clusters.add(holdingCluster);
    }
    if (clusters.contains(EVERY_CLUSTER)) {
      clusters = Set.of(EVERY_CLUSTER);
    }
    List<String> namespaces = strings(targets.get("namespaces"), "spec.targets.namespaces");
    List<Target> reach = new ArrayList<>();
    for (String cluster : clusters) {
      if (namespaces.isEmpty()) {
        reach.add(Target.cluster(cluster));
      }
      namespaces.stream().distinct().forEach(namespace -> reach.add(Target.namespaced(cluster, namespace)));
    }
    return List.copyOf(reach);
  }

  private static Map<?, ?> map(Object value, String field) throws ActionRefused {
    if (value == null) {
      return Map.of();
    }
    if (!(value instanceof Map<?, ?> map)) {
      throw ActionRefused.badField("manifest", field + " must be a mapping; give one BroodOperation with"
          + " spec.targets");
    }
    return map;
  }

  private static List<String> strings(Object value, String field) throws ActionRefused {
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof List<?> list) || list.stream().anyMatch(item -> !(item instanceof String))) {
      throw ActionRefused.badField("manifest", field + " must be a list of names, e.g. [team-a]");
    }
    return list.stream().map(String.class::cast).toList();
  }

  private static String firstLine(Exception e) {
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
