package dev.varroa.operator.controller;

import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerClass;
import dev.varroa.api.v1alpha1.ControllerSettings;
import dev.varroa.api.v1alpha1.JenkinsRole;
import dev.varroa.api.v1alpha1.JenkinsRoleBinding;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.PodTemplate;
import dev.varroa.api.v1alpha1.ProvisioningDefaults;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.TeamRef;
import dev.varroa.api.v1alpha1.TeamSpec;
import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.operator.apply.KnownObjects;
import dev.varroa.operator.bundle.BundleConfigMap;
import dev.varroa.operator.render.CellLayerResolver;
import dev.varroa.operator.render.JenkinsAuthorizationRenderer;
import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.operator.render.naming.StatefulSetName;
import dev.varroa.operator.render.resolve.InstallationDefaults;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.javaoperatorsdk.operator.api.config.informer.FieldSelector;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.IndexedResourceCache;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The Controller reconciler's informers: every input a Controller resolves from (defaults, classes,
 * profiles, bundles and their renders, pod templates, update centers, JenkinsRoles and JenkinsRoleBindings,
 * a cell's Teams, Secrets) and every object it owns.
 * Each maps a change to the Controllers it concerns, so a change lands at once; a pass reads them all
 * from here and sends no GET an informer could answer.
 */
final class ControllerCaches implements ControllerInputLookup, OwnedObjectLookup {
  private static final String MANAGED = ControllerLabels.MANAGED_BY + "=" + ControllerLabels.MANAGED_BY_VALUE;
  /** Helm keeps every release in a Secret of this type, often large and never referenced by a Controller. */
  private static final String HELM_RELEASE_SECRET = "helm.sh/release.v1";

  private final IndexedResourceCache<Controller> controllers;
  private final InformerEventSource<ProvisioningDefaults, Controller> defaults;
  private final InformerEventSource<ControllerClass, Controller> classes;
  private final InformerEventSource<JenkinsVersionProfile, Controller> profiles;
  private final InformerEventSource<ComposedBundle, Controller> bundles;
  private final InformerEventSource<PodTemplate, Controller> podTemplates;
  private final InformerEventSource<UpdateCenter, Controller> updateCenters;
  private final InformerEventSource<JenkinsRole, Controller> jenkinsRoles;
  private final InformerEventSource<JenkinsRoleBinding, Controller> jenkinsRoleBindings;
  private final InformerEventSource<Team, Controller> teams;
  private final InstallationDefaults installation;
  private final Map<Class<? extends HasMetadata>, InformerEventSource<? extends HasMetadata, Controller>> owned =
      new LinkedHashMap<>();
  private final SecretValues secretValues;

  ControllerCaches(EventSourceContext<Controller> context, InstallationDefaults installation) {
    this.installation = installation;
    controllers = context.getPrimaryCache();
    defaults = informer(context, ProvisioningDefaults.class, null, d -> all());
    classes = informer(context, ControllerClass.class, null,
        c -> controllers(ctrl -> ctrl.getSpec() != null && ctrl.getSpec().classRef != null
            && c.getMetadata().getName().equals(ctrl.getSpec().classRef.name)));
    profiles = informer(context, JenkinsVersionProfile.class, null,
        p -> controllers(ctrl -> ControllerInputResolver.profileName(ctrl, this)
            .filter(p.getMetadata().getName()::equals).isPresent()));
    bundles = informer(context, ComposedBundle.class, null, b -> controllers(ctrl -> usesBundle(ctrl,
        b.getMetadata().getNamespace(), b.getMetadata().getName())));
    podTemplates = informer(context, PodTemplate.class, null,
        t -> controllers(ctrl -> inNamespace(ctrl, t.getMetadata().getNamespace())));
    updateCenters = informer(context, UpdateCenter.class, null, u -> all());
    // the mapper sees only the binding's new state: a binding that left a namespace must still reach its Controllers
    jenkinsRoleBindings = informer(context, JenkinsRoleBinding.class, null, b -> all());
    jenkinsRoles = informer(context, JenkinsRole.class, null, r -> controllers(ctrl -> jenkinsRoleBindings().stream()
        .anyMatch(b -> b.getSpec() != null && b.getSpec().roleRef != null
            && r.getMetadata().getName().equals(b.getSpec().roleRef.name)
            && JenkinsAuthorizationRenderer.appliesTo(b, ctrl.getMetadata().getNamespace()))));
    // a cell renders its hosted Teams and the subjects of the Teams they let call them (docs/cells.md)
    teams = informer(context, Team.class, null, t -> controllers(ctrl -> concernsCell(ctrl, TeamRef.of(t))));
    InformerEventSource<Secret, Controller> secrets = new InformerEventSource<>(
        InformerEventSourceConfiguration.from(Secret.class, Controller.class)
            .withFieldSelector(new FieldSelector(List.of(new FieldSelector.Field("type", HELM_RELEASE_SECRET, true))))
            .withItemStore(new SecretMetadataStore())
            .withSecondaryToPrimaryMapper(this::secretUsers)
            .build(), context);
    secretValues = new SecretValues((namespace, name) -> secrets.get(new ResourceID(name, namespace)));
    // the mite's token Secret is owned too; the informer keeps its annotations, which is all a pass reads
    owned.put(Secret.class, secrets);
    owned(context, PersistentVolumeClaim.class, this::byControllerLabel);

    // A pod is <statefulset>-0, and the StatefulSet name is derived from the Controller's name and UID;
    // labels cannot carry a long name whole, so map by that derivation.
    owned(context, Pod.class, pod -> controllers(c -> inNamespace(c, pod.getMetadata().getNamespace())
        && (StatefulSetName.of(c.getMetadata().getName(), c.getMetadata().getUid()) + "-0")
            .equals(pod.getMetadata().getName())));
    owned(context, StatefulSet.class, Mappers.fromOwnerReferences(Controller.class));
    owned(context, ConfigMap.class, this::configMapUsers);
    owned(context, Service.class, Mappers.fromOwnerReferences(Controller.class));
    owned(context, ServiceAccount.class, this::byOwnerOrControllerLabel);
    owned(context, Ingress.class, Mappers.fromOwnerReferences(Controller.class));
    owned(context, Namespace.class, this::byControllerLabel);
    owned(context, RoleBinding.class, this::byControllerLabel);
  }

  List<EventSource<?, Controller>> eventSources() {
    List<EventSource<?, Controller>> all = new ArrayList<>(List.of(defaults, classes, profiles, bundles, podTemplates,
        updateCenters, jenkinsRoles, jenkinsRoleBindings, teams));
    all.addAll(owned.values());
    return all;
  }

  @Override
  public Optional<ProvisioningDefaults> defaults() {
    return defaults.get(new ResourceID(ProvisioningDefaults.DEFAULT_NAME));
  }

  @Override
  public Optional<ControllerClass> controllerClass(String name) {
    return classes.get(new ResourceID(name));
  }

  @Override
  public Optional<ComposedBundle> bundle(String namespace, String name) {
    return bundles.get(new ResourceID(name, namespace));
  }

  @Override
  public Optional<ConfigMap> bundleRender(String namespace, String bundleName) {
    return owned(ConfigMap.class, BundleConfigMap.name(bundleName), namespace);
  }

  @Override
  public Optional<JenkinsVersionProfile> profile(String name) {
    return profiles.get(new ResourceID(name));
  }

  @Override
  public InstallationDefaults installation() {
    return installation;
  }

  @Override
  public List<UpdateCenter> updateCenters() {
    return updateCenters.list(u -> true).toList();
  }

  @Override
  public List<JenkinsRoleBinding> jenkinsRoleBindings() {
    return jenkinsRoleBindings.list(b -> true).toList();
  }

  @Override
  public Optional<JenkinsRole> jenkinsRole(String name) {
    return jenkinsRoles.get(new ResourceID(name));
  }

  @Override
  public Optional<Team> team(String namespace, String name) {
    return teams.get(new ResourceID(name, namespace));
  }

  @Override
  public List<PodTemplate> podTemplates(String namespace) {
    return podTemplates.list(namespace, t -> true).toList();
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T extends HasMetadata> Optional<T> owned(Class<T> kind, String name, String namespace) {
    InformerEventSource<T, Controller> informer = (InformerEventSource<T, Controller>) owned.get(kind);
    if (informer == null) {
      throw new IllegalStateException("no informer for " + kind.getSimpleName() + "; add it to ControllerCaches");
    }
    return informer.get(new ResourceID(name, namespace));
  }

  @Override
  @SuppressWarnings("unchecked")
  public Optional<HasMetadata> existing(HasMetadata desired) {
    return (Optional<HasMetadata>) owned(desired.getClass(), desired.getMetadata().getName(),
        desired.getMetadata().getNamespace());
  }

  /** What the operator just wrote, so the next pass reads it before the watch event arrives. */
  @Override
  public void remember(HasMetadata applied, Optional<HasMetadata> previous) {
    // the Secret informer holds metadata only; the values stay with SecretValues
    HasMetadata cached = applied instanceof Secret s ? SecretMetadataStore.metadataOnly(s) : applied;
    known(applied).ifPresent(known -> known.remember(cached, previous));
  }

  @Override
  public void beforeWrite(HasMetadata desired, Optional<HasMetadata> previous) {
    known(desired).ifPresent(known -> known.beforeWrite(desired, previous));
  }

  /** The informer of this object's kind, as the applier reads and tells it; empty for a kind not watched here. */
  @SuppressWarnings("unchecked")
  private Optional<KnownObjects> known(HasMetadata object) {
    Class<HasMetadata> kind = (Class<HasMetadata>) object.getClass();
    InformerEventSource<HasMetadata, Controller> informer =
        (InformerEventSource<HasMetadata, Controller>) (InformerEventSource<?, Controller>) owned.get(kind);
    return Optional.ofNullable(informer).map(i -> KnownObjects.in(i, kind));
  }

  @Override
  public SecretValues secretValues() {
    return secretValues;
  }

  Optional<Pod> pod(String namespace, String name) {
    return owned(Pod.class, name, namespace);
  }

  Optional<Controller> controller(ResourceID id) {
    return controllers.get(id);
  }

  /** A Controller without its own bundle reference may inherit one from its class or the defaults: it may use any. */
  static boolean usesBundle(Controller controller, String namespace, String bundle) {
    if (!controller.getMetadata().getNamespace().equals(namespace) || controller.getSpec() == null) {
      return false;
    }
    return controller.getSpec().composedBundleRef == null || bundle.equals(controller.getSpec().composedBundleRef.name);
  }

  /**
   * The Controller owning the Secret (the mite's token), else those of its namespace whose spec, class or
   * defaults list it among their secrets: a cheap test, since the operator's own token writes come here too.
   */
  private Set<ResourceID> secretUsers(Secret secret) {
    Set<ResourceID> owners = Mappers.fromOwnerReferences(Controller.class).toPrimaryResourceIDs(secret);
    if (!owners.isEmpty()) {
      return owners;
    }
    String name = secret.getMetadata().getName();
    String namespace = secret.getMetadata().getNamespace();
    boolean inDefaults = listsSecret(defaults().map(d -> d.getSpec()).orElse(null), name);
    return controllers(c -> hostsTeamUsing(c, namespace, name) || inNamespace(c, namespace) && c.getSpec() != null
        && (inDefaults || listsSecret(c.getSpec(), name) || (c.getSpec().classRef != null
            && listsSecret(controllerClass(c.getSpec().classRef.name).map(k -> k.getSpec()).orElse(null), name))));
  }

  /** A Team's change reaches the cells that host it and those hosting a Team it may call (its subjects are granted). */
  private boolean concernsCell(Controller cell, TeamRef team) {
    String cellNamespace = cell.getMetadata().getNamespace();
    List<String> hosted = CellLayerResolver.hosted(cell);
    return hosted.contains(team.key(cellNamespace)) || hosted.stream().map(key -> TeamRef.parse(key, cellNamespace))
        .anyMatch(host -> team(host.namespace(), host.name())
        .filter(t -> t.getSpec() != null && t.getSpec().callableBy != null && t.getSpec().callableBy.stream()
            .anyMatch(caller -> TeamRef.parse(caller, host.namespace()).equals(team)))
        .isPresent());
  }

  /** A cell hosting a Team of {@code namespace} whose credentials come from the Secret {@code secretName}. */
  private boolean hostsTeamUsing(Controller cell, String namespace, String secretName) {
    return CellLayerResolver.hosted(cell).stream().map(key -> TeamRef.parse(key, cell.getMetadata().getNamespace()))
        .filter(team -> team.namespace().equals(namespace))
        .anyMatch(team -> team(team.namespace(), team.name()).filter(t -> credentialsFrom(t, secretName)).isPresent());
  }

  private static boolean credentialsFrom(Team team, String secretName) {
    List<TeamSpec.Credential> credentials = team.getSpec() == null ? null : team.getSpec().credentials;
    return credentials != null && credentials.stream()
        .anyMatch(c -> c.secretRef != null && secretName.equals(c.secretRef.name));
  }

  private static boolean listsSecret(ControllerSettings settings, String secretName) {
    return settings != null && settings.secrets != null
        && settings.secrets.stream().anyMatch(v -> v.secretKeyRef != null && secretName.equals(v.secretKeyRef.name));
  }

  private Set<ResourceID> configMapUsers(ConfigMap configMap) {
    Map<String, String> labels = configMap.getMetadata().getLabels();
    String bundle = labels == null ? null : labels.get(BundleConfigMap.BUNDLE_LABEL);
    if (bundle != null) {
      return controllers(c -> usesBundle(c, configMap.getMetadata().getNamespace(), bundle));
    }
    return byOwnerOrControllerLabel(configMap);
  }

  private Set<ResourceID> byOwnerOrControllerLabel(HasMetadata object) {
    Set<ResourceID> owners = Mappers.fromOwnerReferences(Controller.class).toPrimaryResourceIDs(object);
    return owners.isEmpty() ? byControllerLabel(object) : owners;
  }

  /** Objects in the agents namespace cannot be owned across namespaces; their controller label names the Controller. */
  private Set<ResourceID> byControllerLabel(HasMetadata object) {
    Map<String, String> labels = object.getMetadata().getLabels();
    String value = labels == null ? null : labels.get(ControllerLabels.CONTROLLER);
    return value == null ? Set.of() : controllers(c -> value.equals(ControllerLabels.value(c.getMetadata().getName())));
  }

  private Set<ResourceID> all() {
    return controllers(c -> true);
  }

  private Set<ResourceID> controllers(Predicate<Controller> concerned) {
    return controllers.list(concerned).map(ResourceID::fromResource).collect(Collectors.toSet());
  }

  private static boolean inNamespace(Controller controller, String namespace) {
    return controller.getMetadata().getNamespace().equals(namespace);
  }

  private static <T extends HasMetadata> InformerEventSource<T, Controller> informer(
      EventSourceContext<Controller> context, Class<T> kind, String labelSelector, SecondaryToPrimaryMapper<T> mapper) {
    InformerEventSourceConfiguration.Builder<T> builder = InformerEventSourceConfiguration.from(kind, Controller.class)
        .withSecondaryToPrimaryMapper(mapper);
    if (labelSelector != null) {
      builder.withLabelSelector(labelSelector);
    }
    return new InformerEventSource<>(builder.build(), context);
  }

  private <T extends HasMetadata> void owned(EventSourceContext<Controller> context, Class<T> kind,
      SecondaryToPrimaryMapper<T> mapper) {
    owned.put(kind, informer(context, kind, MANAGED, mapper));
  }
}
