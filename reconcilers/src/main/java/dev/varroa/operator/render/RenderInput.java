package dev.varroa.operator.render;

import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.PodTemplate;
import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.bundle.render.RenderedBundle;
import dev.varroa.operator.render.naming.ControllerNames;
import dev.varroa.operator.render.resolve.InstallationDefaults;
import dev.varroa.operator.render.resolve.ResolvedController;
import java.util.List;
import java.util.Optional;

/**
 * Everything the operator renders one Controller's objects from; the reconciler and
 * {@code varroactl render controller} fill it the same way.
 *
 * @param controller the resolved settings
 * @param profile the JenkinsVersionProfile in force (its image, unless jenkins.image overrides it)
 * @param bundle the render of the Controller's ComposedBundle, or of the built-in varroa-starter
 * @param updateCenter where plugins come from; empty: the default update site
 * @param podTemplates the PodTemplates of the Controller's namespace; those whose controllerSelector
 *     matches are rendered into the Kubernetes cloud
 * @param channel the gateway endpoint, the CA and the token verification key the pod is given
 * @param installation what the chart gives every Controller (where the Varroa plugin's .hpi is, the record store)
 * @param authorization Jenkins' authorization from the JenkinsRoleBindings that apply; empty: none applies
 * @param parking whether the inactivity policy parked the Controller (no replica, Service to the waker)
 * @param cell a cell's generated layer (its Teams' folders, its plugin list); empty: the Controller is no cell
 */
public record RenderInput(ResolvedController controller, JenkinsVersionProfile profile, RenderedBundle bundle,
    Optional<UpdateCenter> updateCenter, List<PodTemplate> podTemplates, ChannelEndpoint channel,
    InstallationDefaults installation, Optional<JenkinsAuthorizationRenderer.Authorization> authorization,
    Parking parking, Optional<CellLayer> cell) {
  public RenderInput {
    podTemplates = List.copyOf(podTemplates);
    java.util.Objects.requireNonNull(channel, "channel");
    java.util.Objects.requireNonNull(installation, "installation");
    java.util.Objects.requireNonNull(authorization, "authorization");
    java.util.Objects.requireNonNull(parking, "parking");
    java.util.Objects.requireNonNull(cell, "cell");
  }

  /** A Controller that is no cell. */
  public RenderInput(ResolvedController controller, JenkinsVersionProfile profile, RenderedBundle bundle,
      Optional<UpdateCenter> updateCenter, List<PodTemplate> podTemplates, ChannelEndpoint channel,
      InstallationDefaults installation, Optional<JenkinsAuthorizationRenderer.Authorization> authorization,
      Parking parking) {
    this(controller, profile, bundle, updateCenter, podTemplates, channel, installation, authorization, parking,
        Optional.empty());
  }

  /** A Controller the inactivity policy did not park. */
  public RenderInput(ResolvedController controller, JenkinsVersionProfile profile, RenderedBundle bundle,
      Optional<UpdateCenter> updateCenter, List<PodTemplate> podTemplates, ChannelEndpoint channel,
      InstallationDefaults installation, Optional<JenkinsAuthorizationRenderer.Authorization> authorization) {
    this(controller, profile, bundle, updateCenter, podTemplates, channel, installation, authorization, Parking.AWAKE);
  }

  /** The same input with the inactivity policy's verdict. */
  public RenderInput withParking(Parking parking) {
    return new RenderInput(controller, profile, bundle, updateCenter, podTemplates, channel, installation,
        authorization, parking, cell);
  }

  /** The same input with a cell's generated layer. */
  public RenderInput withCell(Optional<CellLayer> layer) {
    return new RenderInput(controller, profile, bundle, updateCenter, podTemplates, channel, installation,
        authorization, parking, layer);
  }

  /** A render no JenkinsRoleBinding applies to. */
  public RenderInput(ResolvedController controller, JenkinsVersionProfile profile, RenderedBundle bundle,
      Optional<UpdateCenter> updateCenter, List<PodTemplate> podTemplates, ChannelEndpoint channel,
      InstallationDefaults installation) {
    this(controller, profile, bundle, updateCenter, podTemplates, channel, installation, Optional.empty());
  }

  /** A render for an installation without settings of its own. */
  public RenderInput(ResolvedController controller, JenkinsVersionProfile profile, RenderedBundle bundle,
      Optional<UpdateCenter> updateCenter, List<PodTemplate> podTemplates, ChannelEndpoint channel) {
    this(controller, profile, bundle, updateCenter, podTemplates, channel, InstallationDefaults.none());
  }

  /** A render without a configured channel: the default gateway endpoint and no CA or key. */
  public RenderInput(ResolvedController controller, JenkinsVersionProfile profile, RenderedBundle bundle,
      Optional<UpdateCenter> updateCenter, List<PodTemplate> podTemplates) {
    this(controller, profile, bundle, updateCenter, podTemplates, ChannelEndpoint.unconfigured());
  }

  public ControllerNames names() {
    return controller.names();
  }

  /** What the pod is told about its UpdateCenter; empty: the default update site. */
  public Optional<UpdateCenterEndpoints> updateCenterEndpoints() {
    return updateCenter.flatMap(UpdateCenterEndpoints::of);
  }

  /** The endpoints of a managed UpdateCenter, whose CA the pod mounts and whose site Jenkins uses. */
  public Optional<UpdateCenterEndpoints> managedUpdateCenter() {
    return updateCenterEndpoints().filter(UpdateCenterEndpoints::managed);
  }

  /** jenkins.image when set, else the profile's image. */
  public String jenkinsImage() {
    return controller.jenkins().image().orElse(profile.getSpec().image);
  }
}
