package dev.varroa.operator.controller;

import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.PodTemplate;
import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.bundle.render.RenderedBundle;
import dev.varroa.operator.render.CellLayer;
import dev.varroa.operator.render.ChannelEndpoint;
import dev.varroa.operator.render.JenkinsAuthorizationRenderer;
import dev.varroa.operator.render.RenderInput;
import dev.varroa.operator.render.resolve.InstallationDefaults;
import dev.varroa.operator.render.resolve.ResolvedController;
import java.util.List;
import java.util.Optional;

/**
 * Everything one Controller pass renders from, gathered from the caches by {@link ControllerInputResolver}.
 *
 * @param bundleName the ComposedBundle in force, or varroa-starter
 * @param authorization Jenkins' authorization from the JenkinsRoleBindings that apply; empty: none applies
 * @param cell a cell's generated layer; empty: the Controller is no cell
 */
record ControllerInputs(ResolvedController resolved, JenkinsVersionProfile profile, String bundleName,
    RenderedBundle rendered, Optional<UpdateCenter> updateCenter, List<PodTemplate> podTemplates,
    InstallationDefaults installation, Optional<JenkinsAuthorizationRenderer.Authorization> authorization,
    Optional<CellLayer> cell) {
  ControllerInputs {
    podTemplates = List.copyOf(podTemplates);
  }

  /** A Controller that is no cell. */
  ControllerInputs(ResolvedController resolved, JenkinsVersionProfile profile, String bundleName,
      RenderedBundle rendered, Optional<UpdateCenter> updateCenter, List<PodTemplate> podTemplates,
      InstallationDefaults installation, Optional<JenkinsAuthorizationRenderer.Authorization> authorization) {
    this(resolved, profile, bundleName, rendered, updateCenter, podTemplates, installation, authorization,
        Optional.empty());
  }

  RenderInput renderInput(Optional<ChannelEndpoint> channel) {
    return new RenderInput(resolved, profile, rendered, updateCenter, podTemplates,
        channel.orElseGet(ChannelEndpoint::unconfigured), installation, authorization).withCell(cell);
  }
}
