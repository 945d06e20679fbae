package dev.varroa.operator.controller;

import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.api.v1alpha1.ControllerClass;
import dev.varroa.api.v1alpha1.JenkinsRole;
import dev.varroa.api.v1alpha1.JenkinsRoleBinding;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.PodTemplate;
import dev.varroa.api.v1alpha1.ProvisioningDefaults;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.operator.render.resolve.InstallationDefaults;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.util.List;
import java.util.Optional;

/**
 * Where a Controller pass reads its inputs from: the operator's informer caches in production, maps in
 * unit tests. No method issues a request.
 */
interface ControllerInputLookup {
  Optional<ProvisioningDefaults> defaults();

  Optional<ControllerClass> controllerClass(String name);

  Optional<ComposedBundle> bundle(String namespace, String name);

  /** The ConfigMap in which the ComposedBundle reconciler stored the bundle's render in force. */
  Optional<ConfigMap> bundleRender(String namespace, String bundleName);

  Optional<JenkinsVersionProfile> profile(String name);

  List<UpdateCenter> updateCenters();

  List<PodTemplate> podTemplates(String namespace);

  /** Every JenkinsRoleBinding of the cluster; the renderer picks those that apply to a Controller. */
  default List<JenkinsRoleBinding> jenkinsRoleBindings() {
    return List.of();
  }

  default Optional<JenkinsRole> jenkinsRole(String name) {
    return Optional.empty();
  }

  /** A Team, which a cell hosts or whose pipelines a hosted Team lets call. */
  default Optional<Team> team(String namespace, String name) {
    return Optional.empty();
  }

  /** What the installation gives a Controller its levels leave open (the mite image, the plugin download URL). */
  default InstallationDefaults installation() {
    return InstallationDefaults.none();
  }
}
