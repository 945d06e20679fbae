package dev.varroa.operator.hooks;

import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.List;
import java.util.Set;

/** The ComposedBundles and CatalogSources a push concerns, each once, ordered by namespace and name. */
public record Rechecks(Set<ResourceID> bundles, Set<ResourceID> catalogSources) {
  public Rechecks {
    bundles = Set.copyOf(bundles);
    catalogSources = Set.copyOf(catalogSources);
  }

  public boolean isEmpty() {
    return bundles.isEmpty() && catalogSources.isEmpty();
  }

  /** namespace/name of each bundle, sorted, as the receiver answers and logs them. */
  public List<String> bundleNames() {
    return names(bundles);
  }

  public List<String> catalogSourceNames() {
    return names(catalogSources);
  }

  static String name(ResourceID id) {
    return id.getNamespace().orElse("") + "/" + id.getName();
  }

  private static List<String> names(Set<ResourceID> ids) {
    return ids.stream().map(Rechecks::name).sorted().toList();
  }
}
