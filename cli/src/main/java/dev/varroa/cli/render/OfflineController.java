package dev.varroa.cli.render;

import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerClass;
import dev.varroa.api.v1alpha1.JenkinsRole;
import dev.varroa.api.v1alpha1.JenkinsRoleBinding;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.PodTemplate;
import dev.varroa.api.v1alpha1.ProvisioningDefaults;
import dev.varroa.api.v1alpha1.SecretVariable;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.api.v1alpha1.UpdateCenterStatus;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.JenkinsEnvironment;
import dev.varroa.bundle.RenderRequest;
import dev.varroa.bundle.StarterBundle;
import dev.varroa.bundle.compose.VersionProfileConversion;
import dev.varroa.bundle.render.BundleRenderer;
import dev.varroa.bundle.render.RenderedBundle;
import dev.varroa.cli.bundle.BundleFileOptions;
import dev.varroa.cli.bundle.OfflineComposition;
import dev.varroa.cli.input.InvalidInputException;
import dev.varroa.cli.input.ManifestSet;
import dev.varroa.operator.render.CellLayer;
import dev.varroa.operator.render.CellLayerResolver;
import dev.varroa.operator.render.ChannelEndpoint;
import dev.varroa.operator.render.JenkinsAuthorizationRenderer;
import dev.varroa.operator.render.RenderInput;
import dev.varroa.operator.render.UpdateCenterEndpoints;
import dev.varroa.operator.render.resolve.ControllerRenderCheck;
import dev.varroa.operator.render.resolve.ControllerSettingsResolver;
import dev.varroa.operator.render.resolve.InstallationDefaults;
import dev.varroa.operator.render.resolve.ResolvedController;
import dev.varroa.operator.render.resolve.SettingsProblem;
import dev.varroa.operator.render.resolve.UpdateCenterSelection;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Finds, among the -f objects, everything one Controller renders from, as the operator finds it in
 * the cluster: ProvisioningDefaults {@code default}, the ControllerClass, the bundle (composed like
 * `varroactl bundle render`, or the built-in varroa-starter), its JenkinsVersionProfile, the
 * UpdateCenter and the PodTemplates of the Controller's namespace; for a cell (spec.cell), the Teams of its
 * namespace it hosts or lets call them, and the JenkinsRoleBindings and JenkinsRoles its authorization keeps.
 */
final class OfflineController {
  /** Where a Controller file without metadata.namespace lands, as with kubectl apply. */
  static final String DEFAULT_NAMESPACE = "default";

  private final ManifestSet manifests;
  private final List<Path> files;
  private final Path cacheDir;
  private final List<String> plainHttpRegistries;

  /** Thrown when the settings resolve with problems; each is printed on its own line. */
  static final class SettingsInvalidException extends RuntimeException {
    final List<SettingsProblem> problems;

    SettingsInvalidException(List<SettingsProblem> problems) {
      super(problems.stream().map(SettingsProblem::format).collect(Collectors.joining("; ")));
      this.problems = problems;
    }
  }

  /**
   * @param files the -f paths the manifests were read from
   * @param cacheDir where Git inputs are cached; null: the bundle commands' default
   * @param plainHttpRegistries OCI registries reached over plain HTTP
   */
  OfflineController(ManifestSet manifests, List<Path> files, Path cacheDir, List<String> plainHttpRegistries) {
    this.manifests = manifests;
    this.files = List.copyOf(files);
    this.cacheDir = cacheDir;
    this.plainHttpRegistries = List.copyOf(plainHttpRegistries);
  }

  RenderInput resolve(String name, String uid) throws BundleException {
    return resolve(name, uid, ChannelEndpoint.unconfigured(), InstallationDefaults.none());
  }

  /** @param installation what the operator would read from its environment (the chart's values) */
  RenderInput resolve(String name, String uid, ChannelEndpoint channel, InstallationDefaults installation)
      throws BundleException {
    Controller controller = controller(name);
    controller.getMetadata().setUid(uid);
    if (controller.getMetadata().getNamespace() == null) {
      controller.getMetadata().setNamespace(DEFAULT_NAMESPACE);
    }
    Optional<ControllerClass> controllerClass = Optional.ofNullable(controller.getSpec().classRef)
        .flatMap(ref -> manifests.named(ControllerClass.class, ref.name));
    ControllerSettingsResolver.Resolution resolution = ControllerSettingsResolver.resolve(controller, controllerClass,
        manifests.named(ProvisioningDefaults.class, ProvisioningDefaults.DEFAULT_NAME));
    UpdateCenterSelection.Choice updateCenter = UpdateCenterSelection.choose(manifests.all(UpdateCenter.class));
    List<SettingsProblem> problems = new ArrayList<>(resolution.problems());
    updateCenter.problem().ifPresent(problems::add);
    if (!problems.isEmpty()) {
      throw new SettingsInvalidException(problems);
    }
    ResolvedController resolved = resolution.controller();
    Optional<ComposedBundle> bundle = resolved.composedBundle().map(this::bundle);
    String profileName = resolved.versionProfile(bundle.map(b -> b.getSpec().versionProfileRef)
        .filter(ref -> ref != null && ref.name != null)).orElseThrow(() -> new InvalidInputException(
            "no JenkinsVersionProfile for Controller " + resolved.name()
                + ": name one in spec.versionProfileRef of the Controller, its ComposedBundle, ControllerClass or"
                + " ProvisioningDefaults"));
    JenkinsVersionProfile profile = manifests.named(JenkinsVersionProfile.class, profileName).orElseThrow(() ->
        new InvalidInputException("no JenkinsVersionProfile named " + profileName
            + " in the files given with -f: add its file with -f"));
    RenderedBundle rendered = bundle.isPresent()
        ? new OfflineComposition(BundleFileOptions.of(files, bundle.get().getMetadata().getName(), profileName,
            cacheDir, plainHttpRegistries), manifests).render()
        : starter(resolved, profile);
    String bundleName = bundle.map(b -> "ComposedBundle " + b.getMetadata().getName())
        .orElse("the built-in " + StarterBundle.NAME + " bundle");
    List<SettingsProblem> refused = ControllerRenderCheck.problems(resolved, bundleName, rendered, installation);
    if (!refused.isEmpty()) {
      throw new SettingsInvalidException(refused);
    }
    Optional<UpdateCenter> serving = updateCenter.updateCenter().map(OfflineController::serving);
    String namespace = controller.getMetadata().getNamespace();
    CellLayerResolver.Resolution cell = CellLayerResolver.resolve(controller, key -> {
      dev.varroa.api.v1alpha1.TeamRef ref = dev.varroa.api.v1alpha1.TeamRef.parse(key, namespace);
      return team(ref.namespace(), ref.name());
    }, rendered,
        bundleName, profile, serving);
    if (cell.blocked().isPresent()) {
      throw new InvalidInputException(cell.blocked().get());
    }
    return new RenderInput(resolved, profile, rendered, serving, manifests.all(PodTemplate.class), channel,
        installation, cellAuthorization(cell.layer(), namespace, profileName, bundleName, rendered))
        .withCell(cell.layer());
  }

  /** A Team of the files in this namespace (one without metadata.namespace lands in the default one). */
  private Optional<Team> team(String namespace, String name) {
    return manifests.all(Team.class).stream().filter(t -> name.equals(t.getMetadata().getName()))
        .filter(t -> namespace.equals(Optional.ofNullable(t.getMetadata().getNamespace()).orElse(DEFAULT_NAMESPACE)))
        .findFirst().map(t -> {
          t.getMetadata().setNamespace(namespace);
          return t;
        });
  }

  /** A cell's folder-scoped authorization, as the operator renders it; a Controller that is no cell gets none here. */
  private Optional<JenkinsAuthorizationRenderer.Authorization> cellAuthorization(Optional<CellLayer> cell,
      String namespace, String profileName, String bundleName, RenderedBundle rendered) {
    if (cell.isEmpty()) {
      return Optional.empty();
    }
    JenkinsAuthorizationRenderer.Outcome outcome = JenkinsAuthorizationRenderer.render(
        new JenkinsAuthorizationRenderer.Request(namespace, manifests.all(JenkinsRoleBinding.class),
            name -> manifests.named(JenkinsRole.class, name), profileName, bundleName, rendered, Optional.empty()),
        cell);
    if (outcome instanceof JenkinsAuthorizationRenderer.Refused refused) {
      throw new InvalidInputException(refused.message());
    }
    return outcome instanceof JenkinsAuthorizationRenderer.Rendered r ? Optional.of(r.authorization())
        : Optional.empty();
  }

  /**
   * A managed UpdateCenter from a file has no status yet: it gets the URLs its Service would have in
   * the operator's default namespace, as its reconciler would publish them.
   */
  private static UpdateCenter serving(UpdateCenter updateCenter) {
    if (updateCenter.getSpec() == null || updateCenter.getSpec().managed == null
        || (updateCenter.getStatus() != null && updateCenter.getStatus().url != null)) {
      return updateCenter;
    }
    UpdateCenterEndpoints endpoints = UpdateCenterEndpoints.managed(updateCenter.getMetadata().getName(),
        UpdateCenterEndpoints.DEFAULT_MANAGED_NAMESPACE, Optional.empty());
    UpdateCenter copy = new io.fabric8.kubernetes.client.utils.KubernetesSerialization().clone(updateCenter);
    UpdateCenterStatus status = new UpdateCenterStatus();
    status.url = endpoints.url();
    status.pluginDownloadURL = endpoints.pluginDownloadUrl().orElse(null);
    status.pluginVersionsURL = endpoints.pluginVersionsUrl().orElse(null);
    copy.setStatus(status);
    return copy;
  }

  private Controller controller(String name) {
    List<Controller> controllers = manifests.all(Controller.class);
    if (name != null) {
      return manifests.named(Controller.class, name).orElseThrow(() ->
          new InvalidInputException("no Controller named " + name + " in the files given with -f"));
    }
    if (controllers.size() == 1) {
      return controllers.get(0);
    }
    throw new InvalidInputException(controllers.isEmpty() ? "no Controller in the files given with -f"
        : controllers.size() + " Controllers in the files (" + controllers.stream()
            .map(c -> c.getMetadata().getName()).collect(Collectors.joining(", ")) + "): choose one with --name");
  }

  private ComposedBundle bundle(String name) {
    return manifests.named(ComposedBundle.class, name).orElseThrow(() -> new InvalidInputException(
        "no ComposedBundle named " + name + " in the files given with -f: add its file with -f, or omit"
            + " spec.composedBundleRef for the built-in " + StarterBundle.NAME));
  }

  /** The built-in bundle, rendered as the operator renders it for a Controller without composedBundleRef. */
  private static RenderedBundle starter(ResolvedController controller, JenkinsVersionProfile profile)
      throws BundleException {
    Set<String> secrets = controller.secrets().stream().map((SecretVariable s) -> s.name).collect(Collectors.toSet());
    return new BundleRenderer().render(new RenderRequest(StarterBundle.NAME, List.of(StarterBundle.input()),
        VersionProfileConversion.of(profile), secrets, JenkinsEnvironment.VARIABLES));
  }
}
