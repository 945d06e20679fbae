package dev.varroa.operator.updatecenter;

import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.api.v1alpha1.UpdateCenterSpec;
import dev.varroa.api.v1alpha1.UpdateCenterStatus;
import dev.varroa.operator.apply.KnownObjects;
import dev.varroa.operator.apply.OwnedObjectApplier.OwnershipCheck;
import dev.varroa.operator.apply.OwnedObjectApplier;
import dev.varroa.operator.bundle.BundleConfigMap;
import dev.varroa.operator.render.ManagedUpdateCenterInput;
import dev.varroa.operator.render.UpdateCenterEndpoints;
import dev.varroa.operator.render.UpdateCenterRenderer;
import dev.varroa.operator.render.UpdateCenterSigningSecretRenderer;
import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.operator.render.naming.UpdateCenterNames;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.IndexedResourceCache;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles each UpdateCenter. The external form (spec.url) only gets a status. A managed one runs in
 * the operator's namespace: the operator renders its wanted list (every plugin version the
 * JenkinsVersionProfiles and ComposedBundle locks name), its claim, Service and Deployment, makes its
 * signing Secret when none is named, reads what the running service holds from its status.json, and
 * publishes the URLs, the signing CA and what is missing in status, where Controllers read them.
 */
@ControllerConfiguration(name = "updatecenter")
public final class UpdateCenterReconciler implements Reconciler<UpdateCenter> {
  /**
   * Overrides where the operator reads the running update center's status.json (default: its
   * Service, {@code http://varroa-uc-<name>.<namespace>.svc/status.json}), e.g. when it runs elsewhere.
   */
  public static final String STATUS_URL_ANNOTATION = "varroa.dev/update-center-status-url";
  public static final String REASON_SIGNING_SECRET = "SigningSecretInvalid";
  private static final Logger LOG = LoggerFactory.getLogger(UpdateCenterReconciler.class);
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private final ManagedUpdateCenterSettings settings;
  private final Clock clock;
  private final UpdateCenterStatusReader reader;
  private InformerEventSource<JenkinsVersionProfile, UpdateCenter> profiles;
  private InformerEventSource<ConfigMap, UpdateCenter> bundleRenders;
  private final Map<Class<? extends HasMetadata>, InformerEventSource<? extends HasMetadata, UpdateCenter>> owned =
      new LinkedHashMap<>();

  public UpdateCenterReconciler(ManagedUpdateCenterSettings settings, Clock clock) {
    this(settings, clock, new UpdateCenterStatusReader());
  }

  UpdateCenterReconciler(ManagedUpdateCenterSettings settings, Clock clock, UpdateCenterStatusReader reader) {
    this.settings = settings;
    this.clock = clock;
    this.reader = reader;
  }

  @Override
  public List<EventSource<?, UpdateCenter>> prepareEventSources(EventSourceContext<UpdateCenter> context) {
    IndexedResourceCache<UpdateCenter> primaries = context.getPrimaryCache();
    profiles = new InformerEventSource<>(InformerEventSourceConfiguration.from(JenkinsVersionProfile.class,
        UpdateCenter.class).withSecondaryToPrimaryMapper(p -> managed(primaries)).build(), context);
    // a bundle's render in force lives in its varroa-bundle-<name> ConfigMap, in the bundle's namespace
    bundleRenders = new InformerEventSource<>(InformerEventSourceConfiguration.from(ConfigMap.class, UpdateCenter.class)
        .withName("bundle-renders").withLabelSelector(BundleConfigMap.BUNDLE_LABEL).withWatchAllNamespaces()
        .withSecondaryToPrimaryMapper(c -> managed(primaries)).build(), context);
    for (Class<? extends HasMetadata> kind : List.of(Deployment.class, Service.class, PersistentVolumeClaim.class,
        ConfigMap.class, Secret.class)) {
      owned.put(kind, ownedInformer(context, kind, primaries));
    }
    List<EventSource<?, UpdateCenter>> sources = new ArrayList<>(List.of(profiles, bundleRenders));
    sources.addAll(owned.values());
    return sources;
  }

  private <T extends HasMetadata> InformerEventSource<T, UpdateCenter> ownedInformer(
      EventSourceContext<UpdateCenter> context, Class<T> kind, IndexedResourceCache<UpdateCenter> primaries) {
    return new InformerEventSource<>(InformerEventSourceConfiguration.from(kind, UpdateCenter.class)
        .withName("updatecenter-" + kind.getSimpleName().toLowerCase())
        .withNamespaces(Set.of(settings.namespace()))
        .withLabelSelector(UpdateCenterRenderer.UPDATE_CENTER_LABEL)
        .withSecondaryToPrimaryMapper(object -> {
          String value = object.getMetadata().getLabels() == null ? null
              : object.getMetadata().getLabels().get(UpdateCenterRenderer.UPDATE_CENTER_LABEL);
          return primaries.list(u -> ControllerLabels.value(u.getMetadata().getName()).equals(value))
              .map(ResourceID::fromResource).collect(Collectors.toSet());
        }).build(), context);
  }

  private static Set<ResourceID> managed(IndexedResourceCache<UpdateCenter> primaries) {
    return primaries.list(u -> u.getSpec() != null && u.getSpec().managed != null).map(ResourceID::fromResource)
        .collect(Collectors.toSet());
  }

  @Override
  public UpdateControl<UpdateCenter> reconcile(UpdateCenter updateCenter, Context<UpdateCenter> context) {
    UpdateCenterStatus previous = updateCenter.getStatus() == null ? new UpdateCenterStatus() : updateCenter.getStatus();
    long generation = updateCenter.getMetadata().getGeneration() == null ? 0 : updateCenter.getMetadata().getGeneration();
    if (updateCenter.getSpec().managed == null) {
      return patch(updateCenter, previous, UpdateCenterStatusAggregator.external(previous, updateCenter, generation,
          clock.instant()));
    }
    KubernetesClient client = context.getClient();
    String name = updateCenter.getMetadata().getName();
    UpdateCenterSpec.Managed spec = updateCenter.getSpec().managed;
    SortedMap<String, SortedSet<String>> wanted = WantedPluginSet.of(profiles.list(p -> true).toList(),
        bundleRenders.list(c -> true).toList());
    Signing signing = signing(updateCenter, client);

    Optional<UpdateCenterReport> report = Optional.empty();
    Optional<String> unreachable = Optional.empty();
    if (signing.problem().isEmpty()) {
      // objects only Varroa names, in the operator's namespace: nothing to check for ownership
      OwnedObjectApplier applier = new OwnedObjectApplier(client, this::existing, OwnershipCheck.NONE);
      List<HasMetadata> objects = UpdateCenterRenderer.render(new ManagedUpdateCenterInput(updateCenter,
          settings.namespace(), spec.image != null ? spec.image : settings.defaultImage(), new java.util.TreeSet<>(wanted.keySet()),
          signing.secret()));
      for (HasMetadata object : objects) {
        if (object instanceof PersistentVolumeClaim) {
          // the plugin volume outlives its UpdateCenter (imported plugins are costly to carry in again): not owned
          applier.createIfAbsent(object);
        } else {
          applier.apply(object, updateCenter);
        }
      }
      URI statusUrl = statusUrl(updateCenter);
      try {
        report = Optional.of(reader.read(statusUrl));
      } catch (IOException | RuntimeException e) {
        unreachable = Optional.of(statusUrl + ": " + e.getMessage());
      }
    }
    UpdateCenterEndpoints endpoints = UpdateCenterEndpoints.managed(name, settings.namespace(), signing.ca());
    UpdateCenterStatus status = UpdateCenterStatusAggregator.managed(previous, new UpdateCenterStatusAggregator.Observation(
        generation, endpoints, wanted, report, unreachable, signing.problem(), spec.upstream != null), clock.instant());
    return patch(updateCenter, previous, status).rescheduleAfter(settings.pollInterval());
  }

  /** The signing Secret in force, the CA it carries, or why it cannot be used. */
  private record Signing(String secret, Optional<String> ca, Optional<UpdateCenterStatusAggregator.Problem> problem) {}

  private Signing signing(UpdateCenter updateCenter, KubernetesClient client) {
    String name = updateCenter.getMetadata().getName();
    String namespace = settings.namespace();
    UpdateCenterSpec.Managed spec = updateCenter.getSpec().managed;
    if (spec.signingSecretRef != null) {
      String secretName = spec.signingSecretRef.name;
      Secret secret = client.secrets().inNamespace(namespace).withName(secretName).get();
      if (secret == null) {
        return new Signing(secretName, Optional.empty(), Optional.of(new UpdateCenterStatusAggregator.Problem(
            REASON_SIGNING_SECRET, "Secret " + secretName + " (spec.managed.signingSecretRef) does not exist in namespace "
            + namespace + "; fix: create it with ca.crt, signer.crt and signer.key (RSA, PEM), or remove"
            + " signingSecretRef and the operator makes one")));
      }
      List<String> absent = List.of(UpdateCenterSigningSecretRenderer.CA_KEY,
          UpdateCenterSigningSecretRenderer.CERTIFICATE_KEY, UpdateCenterSigningSecretRenderer.PRIVATE_KEY).stream()
          .filter(k -> secret.getData() == null || !secret.getData().containsKey(k)).toList();
      if (!absent.isEmpty()) {
        return new Signing(secretName, Optional.empty(), Optional.of(new UpdateCenterStatusAggregator.Problem(
            REASON_SIGNING_SECRET, "Secret " + secretName + " (spec.managed.signingSecretRef) in namespace " + namespace
            + " lacks " + String.join(", ", absent) + "; fix: add the signing CA certificate (ca.crt), the signer's"
            + " certificate (signer.crt) and its RSA key (signer.key), PEM")));
      }
      return new Signing(secretName, Optional.of(decode(secret, UpdateCenterSigningSecretRenderer.CA_KEY)), Optional.empty());
    }
    String secretName = UpdateCenterNames.of(name).signingSecret();
    // the informer keeps our own Secrets; a GET covers the moment right after our create
    Secret secret = owned(Secret.class).get(new ResourceID(secretName, namespace))
        .orElseGet(() -> client.secrets().inNamespace(namespace).withName(secretName).get());
    if (secret == null) {
      UpdateCenterSigningSecretRenderer.Material material = UpdateCenterSigningKeys.generate(name, clock);
      secret = UpdateCenterSigningSecretRenderer.render(name, namespace, material);
      new OwnedObjectApplier(client, KnownObjects.NONE, OwnershipCheck.NONE).apply(secret, updateCenter);
      LOG.info("event=update_center_signing_key_created update_center={} secret={}/{}", name, namespace, secretName);
      return new Signing(secretName, Optional.of(material.caPem()), Optional.empty());
    }
    return new Signing(secretName, Optional.of(decode(secret, UpdateCenterSigningSecretRenderer.CA_KEY)), Optional.empty());
  }

  private URI statusUrl(UpdateCenter updateCenter) {
    Map<String, String> annotations = updateCenter.getMetadata().getAnnotations();
    String override = annotations == null ? null : annotations.get(STATUS_URL_ANNOTATION);
    if (override != null && !override.isBlank()) {
      return URI.create(override.strip());
    }
    return URI.create(UpdateCenterNames.of(updateCenter.getMetadata().getName()).baseUrl(settings.namespace())
        + "/status.json");
  }

  private Optional<HasMetadata> existing(HasMetadata desired) {
    return owned(desired.getClass()).get(ResourceID.fromResource(desired)).map(HasMetadata.class::cast);
  }

  @SuppressWarnings("unchecked")
  private <T extends HasMetadata> InformerEventSource<T, UpdateCenter> owned(Class<T> kind) {
    return (InformerEventSource<T, UpdateCenter>) owned.get(kind);
  }

  private static String decode(Secret secret, String key) {
    return new String(Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
  }

  private static UpdateControl<UpdateCenter> patch(UpdateCenter updateCenter, UpdateCenterStatus previous,
      UpdateCenterStatus status) {
    if (JSON.asJson(status).equals(JSON.asJson(previous))) {
      return UpdateControl.noUpdate();
    }
    updateCenter.setStatus(status);
    // only this reconciler writes status: no resourceVersion, so a lagging cache does not end in a 409
    updateCenter.getMetadata().setResourceVersion(null);
    return UpdateControl.patchStatus(updateCenter);
  }
}
