package dev.varroa.api.v1alpha1;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/** The 17 kinds of varroa.dev/v1alpha1, by kind name. */
public final class VarroaKinds {
  public static final List<Class<? extends HasMetadata>> ALL = List.of(
      Controller.class, ComposedBundle.class, CatalogSource.class, CatalogItem.class, PodTemplate.class,
      ProvisioningDefaults.class, ControllerClass.class, JenkinsVersionProfile.class, VarroaRole.class,
      VarroaRoleBinding.class, JenkinsRole.class, JenkinsRoleBinding.class, UpdateCenter.class, BroodOperation.class,
      BroodSchedule.class, CellPool.class, Team.class);

  private VarroaKinds() {}

  public static Class<? extends HasMetadata> byKind(String kind) {
    return ALL.stream().filter(c -> c.getSimpleName().equals(kind)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("not a varroa.dev kind: " + kind));
  }
}
