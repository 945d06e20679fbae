package dev.varroa.operator.controller;

import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerClass;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.PodTemplate;
import dev.varroa.api.v1alpha1.ProvisioningDefaults;
import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.JenkinsEnvironment;
import dev.varroa.bundle.RenderRequest;
import dev.varroa.bundle.StarterBundle;
import dev.varroa.bundle.render.BundleRenderer;
import dev.varroa.bundle.render.RenderedBundle;
import dev.varroa.bundle.compose.VersionProfileConversion;
import dev.varroa.operator.bundle.BundleConfigMap;
import dev.varroa.operator.render.ControllerLabels;
import dev.varroa.operator.render.ControllerNames;
import dev.varroa.operator.render.ControllerObjects;
import dev.varroa.operator.render.ControllerSettingsResolver;
import dev.varroa.operator.render.JenkinsContainer;
import dev.varroa.operator.render.RenderInput;
import dev.varroa.operator.render.ResolvedController;
import dev.varroa.operator.render.StatefulSetName;
import dev.varroa.operator.render.UpdateCenterSelection;
import dev.varroa.operator.channel.BootstrapTokenIssuer;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.MiteRoute;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
import io.nats.client.JetStreamApiException;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * Reconciles each Controller into its Jenkins workload: resolves ProvisioningDefaults &lt; ControllerClass
 * &lt; Controller, renders the owned objects with the pure renderers, applies only what changed, and
 * derives status from the StatefulSet and its pod.
 */
@ControllerConfiguration(name = "controller")
public final class ControllerReconciler implements Reconciler<Controller>, Cleaner<Controller> {
  /** How soon a Controller waiting for its bundle's first render looks again. */
  static final Duration WAIT_FOR_BUNDLE = Duration.ofSeconds(10);
  /** How soon a rotated secret value reaches a connected mite at the latest. */
  static final Duration SECRET_RECHECK = Duration.ofMinutes(5);
  private static final Logger LOG = LoggerFactory.getLogger(ControllerReconciler.class);
  private static final String MANAGED = ControllerLabels.MANAGED_BY + "=" + ControllerLabels.MANAGED_BY_VALUE;

  private final Clock clock;
  private final Map<String, RenderedBundle> starterByProfile = new ConcurrentHashMap<>();
  private final AtomicLong passes = new AtomicLong();
  private final ControlChannel channel;
  private final MiteDelivery delivery;
  private final SimpleInboundEventSource<Controller> miteEvents = new SimpleInboundEventSource<>("mite-routes");

  public ControllerReconciler(Clock clock) {
    this(clock, null);
  }

  /** @param channel the control channel to the mites; null runs without one (no tokens, no desired-state push) */
  public ControllerReconciler(Clock clock, ControlChannel channel) {
    this.clock = clock;
    this.channel = channel;
    this.delivery = channel == null ? null
        : new MiteDelivery(channel, clock, id -> miteEvents.propagateEvent(new ResourceID(id.name(), id.namespace())));
  }

  @Override
  public List<EventSource<?, Controller>> prepareEventSources(EventSourceContext<Controller> context) {
    InformerEventSource<StatefulSet, Controller> statefulSets = new InformerEventSource<>(
        InformerEventSourceConfiguration.from(StatefulSet.class, Controller.class)
            .withLabelSelector(MANAGED)
            .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(Controller.class))
            .build(), context);
    // A pod is <statefulset>-0, and the StatefulSet name is derived from the Controller's name and UID;
    // labels cannot carry a long name whole, so map by that derivation.
    var controllers = context.getPrimaryCache();
    InformerEventSource<Pod, Controller> pods = new InformerEventSource<>(
        InformerEventSourceConfiguration.from(Pod.class, Controller.class)
            .withLabelSelector(MANAGED)
            .withSecondaryToPrimaryMapper(pod -> controllers.list(c -> c.getMetadata().getNamespace()
                    .equals(pod.getMetadata().getNamespace())
                    && (StatefulSetName.of(c.getMetadata().getName(), c.getMetadata().getUid()) + "-0")
                        .equals(pod.getMetadata().getName()))
                .map(ResourceID::fromResource).collect(Collectors.toSet()))
            .build(), context);
    // A new render or a stalled bundle concerns every Controller that uses the bundle.
    var primaries = controllers;
    InformerEventSource<ComposedBundle, Controller> bundles = new InformerEventSource<>(
        InformerEventSourceConfiguration.from(ComposedBundle.class, Controller.class)
            .withSecondaryToPrimaryMapper(bundle -> primaries.list(c -> usesBundle(c, bundle))
                .map(ResourceID::fromResource).collect(Collectors.toSet()))
            .build(), context);
    if (channel != null) {
      channel.serve(id -> controllers.get(new ResourceID(id.name(), id.namespace()))
              .filter(c -> id.uid().equals(c.getMetadata().getUid())).isPresent(),
          routeKey -> {
            int dot = routeKey.indexOf('.');
            if (dot > 0) {
              miteEvents.propagateEvent(new ResourceID(routeKey.substring(dot + 1), routeKey.substring(0, dot)));
            }
          });
      return List.of(statefulSets, pods, bundles, miteEvents);
    }
    return List.of(statefulSets, pods, bundles);
  }

  /** A Controller without its own bundle reference may inherit one from its class or the defaults: it may use any. */
  private static boolean usesBundle(Controller controller, ComposedBundle bundle) {
    if (!controller.getMetadata().getNamespace().equals(bundle.getMetadata().getNamespace())
        || controller.getSpec() == null) {
      return false;
    }
    return controller.getSpec().composedBundleRef == null
        || bundle.getMetadata().getName().equals(controller.getSpec().composedBundleRef.name);
  }

  @Override
  public UpdateControl<Controller> reconcile(Controller controller, Context<Controller> context) {
    KubernetesClient client = context.getClient();
    String namespace = controller.getMetadata().getNamespace();
    ControllerStatus previous = controller.getStatus() == null ? new ControllerStatus() : controller.getStatus();
    long generation = controller.getMetadata().getGeneration() == null ? 0 : controller.getMetadata().getGeneration();

    Optional<ProvisioningDefaults> defaults = Optional.ofNullable(
        client.resources(ProvisioningDefaults.class).withName(ProvisioningDefaults.DEFAULT_NAME).get());
    Optional<ControllerClass> controllerClass = controller.getSpec().classRef == null ? Optional.empty()
        : Optional.ofNullable(client.resources(ControllerClass.class).withName(controller.getSpec().classRef.name).get());
    if (controller.getSpec().classRef != null && controllerClass.isEmpty()) {
      return blocked(controller, previous, generation, "ControllerClass " + controller.getSpec().classRef.name
          + " does not exist; fix: create it, or correct spec.classRef.name");
    }
    ControllerSettingsResolver.Resolution resolution =
        ControllerSettingsResolver.resolve(controller, controllerClass, defaults);
    if (!resolution.ok()) {
      return blocked(controller, previous, generation, resolution.problems().stream()
          .map(p -> p.format()).collect(Collectors.joining("; ")));
    }
    ResolvedController resolved = resolution.controller();
    Optional<ComposedBundle> bundle = resolved.composedBundle().map(name ->
        client.resources(ComposedBundle.class).inNamespace(namespace).withName(name).get());
    if (resolved.composedBundle().isPresent() && bundle.get() == null) {
      return blocked(controller, previous, generation, "ComposedBundle " + resolved.composedBundle().get()
          + " does not exist in namespace " + namespace + "; fix: create it, or correct spec.composedBundleRef.name");
    }
    Optional<String> profileName = resolved.ownVersionProfile()
        .or(() -> bundle.map(b -> b.getSpec().versionProfileRef == null ? null : b.getSpec().versionProfileRef.name))
        .or(resolved::inheritedVersionProfile);
    JenkinsVersionProfile profile = profileName.map(name -> client.resources(JenkinsVersionProfile.class).withName(name).get())
        .orElse(null);
    if (profile == null) {
      return blocked(controller, previous, generation, profileName.map(n -> "JenkinsVersionProfile " + n + " does not exist")
          .orElse("no JenkinsVersionProfile is named") + "; fix: set spec.versionProfileRef to a profile that exists");
    }

    RenderedBundle rendered;
    String bundleName = resolved.composedBundle().orElse(StarterBundle.NAME);
    if (bundle.isPresent()) {
      Optional<Condition> stalled = bundle.get().getStatus() == null ? Optional.empty()
          : bundle.get().getStatus().condition(Condition.STALLED).filter(c -> c.status == Condition.Status.True);
      if (stalled.isPresent()) {
        return blocked(controller, previous, generation, "ComposedBundle " + bundleName + " cannot render: "
            + stalled.get().message);
      }
      Optional<RenderedBundle> stored = BundleConfigMap.read(client.configMaps().inNamespace(namespace)
          .withName(BundleConfigMap.name(bundleName)).get());
      if (stored.isEmpty()) {
        ControllerStatus waiting = StatusComparison.copy(previous);
        waiting.phase = previous.phase == null ? ControllerStatus.Phase.Pending : previous.phase;
        waiting.bundle = bundleName;
        waiting.observedGeneration = generation;
        return patch(controller, previous, waiting).rescheduleAfter(WAIT_FOR_BUNDLE);
      }
      rendered = stored.get();
    } else {
      try {
        rendered = starter(profile);
      } catch (BundleException e) {
        return blocked(controller, previous, generation, "the built-in " + StarterBundle.NAME
            + " bundle does not render with JenkinsVersionProfile " + profile.getMetadata().getName() + ": "
            + e.getMessage() + "; fix: use a profile that lists the starter's plugins");
      }
    }

    UpdateCenterSelection.Choice updateCenter = UpdateCenterSelection.choose(
        client.resources(UpdateCenter.class).list().getItems());
    if (updateCenter.problem().isPresent()) {
      return blocked(controller, previous, generation, updateCenter.problem().get().format());
    }
    RenderInput input = channel == null
        ? new RenderInput(resolved, profile, rendered, updateCenter.updateCenter(),
            client.resources(PodTemplate.class).inNamespace(namespace).list().getItems())
        : new RenderInput(resolved, profile, rendered, updateCenter.updateCenter(),
            client.resources(PodTemplate.class).inNamespace(namespace).list().getItems(), channel.endpoint());
    OwnedObjectApplier applier = new OwnedObjectApplier(client);
    List<HasMetadata> objects = ControllerObjects.render(input);
    StatefulSet desiredSts = objects.stream().filter(StatefulSet.class::isInstance).map(StatefulSet.class::cast)
        .findFirst().orElseThrow();
    StatefulSet existingSts = context.getSecondaryResources(StatefulSet.class).stream()
        .filter(s -> s.getMetadata().getName().equals(desiredSts.getMetadata().getName())).findFirst().orElse(null);
    PersistenceResize.Plan resize = PersistenceResize.plan(desiredSts, existingSts, claimSize(client, existingSts));
    if (resize instanceof PersistenceResize.Refused refused) {
      return blocked(controller, previous, generation, refused.message());
    }
    for (HasMetadata object : objects) {
      applier.apply(object, controller);
    }
    if (resize instanceof PersistenceResize.Grow grow) {
      Optional<String> refused = growJenkinsHome(client, desiredSts, grow.size());
      if (refused.isPresent()) {
        return blocked(controller, previous, generation, refused.get());
      }
    }

    String stsName = input.names().statefulSet();
    StatefulSet statefulSet = context.getSecondaryResources(StatefulSet.class).stream()
        .filter(s -> stsName.equals(s.getMetadata().getName())).findFirst().orElse(null);
    Pod pod = context.getSecondaryResources(Pod.class).stream()
        .filter(p -> (stsName + "-0").equals(p.getMetadata().getName())).findFirst().orElse(null);
    ControllerStatusAggregator.MiteObservation mite = null;
    Optional<Duration> recheck = Optional.empty();
    if (channel != null) {
      ControllerIdentity id = new ControllerIdentity(namespace, controller.getMetadata().getName(),
          controller.getMetadata().getUid());
      Optional<MiteRoute> route = channel.routes().live(id);
      // a connected mite holds its certificate and needs no token: nothing to read
      if (!resolved.stopped() && route.isEmpty()) {
        recheck = ensureBootstrapToken(client, controller, id, input, pod);
      }
      if (route.isPresent()) {
        MiteSecrets.Resolution secrets = MiteSecrets.resolve(client, resolved);
        if (secrets.problem().isPresent()) {
          return blocked(controller, previous, generation, secrets.problem().get());
        }
        ConfigMap casc = objects.stream().filter(o -> o instanceof ConfigMap
            && o.getMetadata().getName().equals(input.names().cascConfigMap())).map(ConfigMap.class::cast)
            .findFirst().orElseThrow();
        delivery.deliver(id, route.get(), new DesiredFiles(casc.getData(), secrets.values()),
            rendered.digest(), Duration.ofSeconds(resolved.commandDeadlineSeconds()));
        // Secrets are not watched (that would cache every Secret of the cluster): look again for rotated values.
        recheck = Optional.of(SECRET_RECHECK);
      }
      mite = MiteObservations.of(route, delivery.lastResult(id), previous.miteStatus);
    }
    ControllerStatus status = ControllerStatusAggregator.aggregate(previous, new ControllerStatusAggregator.Observation(
        generation, resolved.stopped(), Optional.empty(), bundleName, stsName, JenkinsContainer.jenkinsUrl(input),
        statefulSet, pod, mite), clock.instant());
    passes.incrementAndGet();
    UpdateControl<Controller> control = patch(controller, previous, status);
    return recheck.map(control::rescheduleAfter).orElse(control);
  }

  private static Quantity claimSize(KubernetesClient client, StatefulSet sts) {
    if (sts == null || sts.getSpec().getVolumeClaimTemplates().isEmpty()) {
      return null;
    }
    PersistentVolumeClaim pvc = client.persistentVolumeClaims().inNamespace(sts.getMetadata().getNamespace())
        .withName(sts.getSpec().getVolumeClaimTemplates().get(0).getMetadata().getName() + "-"
            + sts.getMetadata().getName() + "-0").get();
    return pvc == null ? null : pvc.getSpec().getResources().getRequests().get("storage");
  }

  /**
   * Asks for the larger size on the claim of pod 0; the storage class decides whether it can expand.
   * Returns why Kubernetes refused, with the fix.
   */
  private static Optional<String> growJenkinsHome(KubernetesClient client, StatefulSet sts, Quantity size) {
    String claim = sts.getSpec().getVolumeClaimTemplates().get(0).getMetadata().getName() + "-"
        + sts.getMetadata().getName() + "-0";
    PersistentVolumeClaim pvc = client.persistentVolumeClaims().inNamespace(sts.getMetadata().getNamespace())
        .withName(claim).get();
    // Kubernetes resizes bound claims only; an unbound one is provisioned later at the template's size.
    boolean bound = pvc != null && pvc.getStatus() != null && "Bound".equals(pvc.getStatus().getPhase());
    if (pvc != null && !bound) {
      LOG.info("event=jenkins_home_expansion_waiting claim={} reason=claim_not_bound", claim);
    }
    if (bound && Quantity.getAmountInBytes(pvc.getSpec().getResources().getRequests().get("storage"))
        .compareTo(Quantity.getAmountInBytes(size)) < 0) {
      Quantity current = pvc.getSpec().getResources().getRequests().get("storage");
      try {
        // a merge patch without resourceVersion: the volume controllers update the claim too
        client.persistentVolumeClaims().inNamespace(sts.getMetadata().getNamespace()).withName(claim)
            .patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"" + size + "\"}}}}");
      } catch (KubernetesClientException e) {
        if (e.getCode() != 403 && e.getCode() != 422) {
          throw e;
        }
        return Optional.of("persistence.size " + size + " cannot be applied to claim " + claim + ": "
            + e.getStatus().getMessage() + "; fix: give the claim's storage class allowVolumeExpansion: true, or set"
            + " persistence.size back to " + current);
      }
      LOG.info("event=jenkins_home_expansion_requested claim={} size={}", claim, size);
    }
    return Optional.empty();
  }

  /**
   * Mints a bootstrap token when the mite needs one and returns when to look again: at the expiry of
   * an unused token, so an unregistered mite is never left with a dead one.
   */
  private Optional<Duration> ensureBootstrapToken(KubernetesClient client, Controller controller, ControllerIdentity id,
      RenderInput input, Pod pod) {
    String secretName = input.names().miteTokenSecret();
    Secret existing = client.secrets().inNamespace(id.namespace()).withName(secretName).get();
    try {
      Optional<String> reason = MiteTokenSecret.reasonToMint(existing,
          MiteTokenSecret.record(channel.bootstrapTokens(), existing), false, pod, clock.instant());
      if (reason.isPresent()) {
        BootstrapTokenIssuer.Minted minted = channel.bootstrapTokens().mint(id, clock.instant());
        new OwnedObjectApplier(client).apply(MiteTokenSecret.render(id, secretName, minted,
            controller.getMetadata().getName()), controller);
        LOG.info("event=bootstrap_token_minted controller={} reason={} expires_at={}", id.routeKey(), reason.get(),
            minted.expiresAt());
        return Optional.of(Duration.between(clock.instant(), minted.expiresAt()).plusSeconds(1));
      }
    } catch (IOException | JetStreamApiException e) {
      LOG.warn("event=bootstrap_token_unavailable controller={} error={}", id.routeKey(), e.getMessage());
      return Optional.of(WAIT_FOR_BUNDLE);
    }
    return MiteTokenSecret.expiresAt(existing).filter(at -> at.isAfter(clock.instant()))
        .map(at -> Duration.between(clock.instant(), at).plusSeconds(1));
  }

  /**
   * Objects in the Controller's namespace go with it through owner references; its Role and
   * RoleBinding in the agents namespace cannot be owned across namespaces, so they are deleted here.
   * The agents namespace itself may be shared by other Controllers and stays.
   */
  @Override
  public DeleteControl cleanup(Controller controller, Context<Controller> context) {
    KubernetesClient client = context.getClient();
    String stsName = StatefulSetName.of(controller.getMetadata().getName(), controller.getMetadata().getUid());
    String label = ControllerLabels.CONTROLLER + "=" + ControllerLabels.value(controller.getMetadata().getName());
    client.rbac().roles().inAnyNamespace().withLabelSelector(label).list().getItems().stream()
        .filter(role -> role.getMetadata().getName().equals(stsName + ControllerNames.AGENTS_SUFFIX))
        .forEach(role -> client.resource(role).delete());
    client.rbac().roleBindings().inAnyNamespace().withLabelSelector(label).list().getItems().stream()
        .filter(binding -> binding.getMetadata().getName().equals(stsName + ControllerNames.AGENTS_SUFFIX))
        .forEach(binding -> client.resource(binding).delete());
    if (delivery != null) {
      delivery.forget(new ControllerIdentity(controller.getMetadata().getNamespace(), controller.getMetadata().getName(),
          controller.getMetadata().getUid()));
    }
    return DeleteControl.defaultDelete();
  }

  /** Reconcile passes that completed without error, for metrics and tests that wait for a resync to settle. */
  public long completedPasses() {
    return passes.get();
  }

  private RenderedBundle starter(JenkinsVersionProfile profile) throws BundleException {
    String key = profile.getMetadata().getName() + "@" + profile.getMetadata().getResourceVersion();
    RenderedBundle cached = starterByProfile.get(key);
    if (cached == null) {
      cached = new BundleRenderer().render(new RenderRequest(StarterBundle.NAME, List.of(StarterBundle.input()),
          VersionProfileConversion.of(profile), Set.of(), JenkinsEnvironment.VARIABLES));
      starterByProfile.put(key, cached);
    }
    return cached;
  }

  private UpdateControl<Controller> blocked(Controller controller, ControllerStatus previous, long generation,
      String message) {
    ControllerStatus status = ControllerStatusAggregator.aggregate(previous, new ControllerStatusAggregator.Observation(
        generation, false, Optional.of(message), previous.bundle, previous.statefulSetName, previous.url, null, null),
        clock.instant());
    return patch(controller, previous, status).rescheduleAfter(WAIT_FOR_BUNDLE);
  }

  private static UpdateControl<Controller> patch(Controller controller, ControllerStatus previous, ControllerStatus status) {
    if (StatusComparison.same(previous, status)) {
      return UpdateControl.noUpdate();
    }
    controller.setStatus(status);
    return UpdateControl.patchStatus(controller);
  }
}
