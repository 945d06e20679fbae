package dev.varroa.api;

import dev.varroa.api.v1alpha1.CatalogItem;
import dev.varroa.api.v1alpha1.CatalogSource;
import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerClass;
import dev.varroa.api.v1alpha1.JenkinsRole;
import dev.varroa.api.v1alpha1.JenkinsRoleBinding;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.PodTemplate;
import dev.varroa.api.v1alpha1.ProvisioningDefaults;
import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.api.v1alpha1.VarroaRole;
import dev.varroa.api.v1alpha1.VarroaRoleBinding;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/** The 13 kinds of varroa.dev/v1alpha1, for tests that walk all of them. */
final class VarroaKinds {
  static final List<Class<? extends HasMetadata>> ALL = List.of(
      Controller.class, ComposedBundle.class, CatalogSource.class, CatalogItem.class, PodTemplate.class,
      ProvisioningDefaults.class, ControllerClass.class, JenkinsVersionProfile.class, VarroaRole.class,
      VarroaRoleBinding.class, JenkinsRole.class, JenkinsRoleBinding.class, UpdateCenter.class);

  private VarroaKinds() {}

  static Class<? extends HasMetadata> byKind(String kind) {
    return ALL.stream().filter(c -> c.getSimpleName().equals(kind)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("not a varroa.dev kind: " + kind));
  }
}
