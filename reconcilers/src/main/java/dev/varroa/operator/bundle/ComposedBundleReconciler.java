package dev.varroa.operator.bundle;

import dev.varroa.api.v1alpha1.Artifact;
import dev.varroa.api.v1alpha1.CatalogItem;
import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.api.v1alpha1.ComposedBundleSpec;
import dev.varroa.api.v1alpha1.ComposedBundleStatus;
import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.ProvisioningDefaults;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleProblem;
import dev.varroa.bundle.JenkinsEnvironment;
import dev.varroa.bundle.SourceUnavailableException;
import dev.varroa.bundle.compose.ComposeRequest;
import dev.varroa.bundle.compose.Composition;
import dev.varroa.bundle.compose.InputRefs;
import dev.varroa.bundle.compose.VersionProfileConversion;
import dev.varroa.operator.apply.ForeignObjectException;
import dev.varroa.operator.apply.KnownObjects;
import dev.varroa.operator.apply.ObjectOwnership;
import dev.varroa.operator.apply.OwnedObjectApplier;
import dev.varroa.operator.events.EventRecorder;
import dev.varroa.operator.status.Conditions;
import dev.varroa.operator.status.Kstatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.IndexedResourceCache;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renders each ComposedBundle with the composer: on a spec change, on every interval (a cheap
 * revision check), and when reconcile.fluxcd.io/requestedAt changes. Stores the render in force in
 * a ConfigMap it owns and reports it in Flux-style status.
 */
@ControllerConfiguration(name = "composedbundle", generationAwareEventProcessing = false)
public final class ComposedBundleReconciler implements Reconciler<ComposedBundle>, Cleaner<ComposedBundle> {
  /** Flux's annotation to ask for a reconcile now; the value handled is echoed in status. */
  public static final String REQUESTED_AT = "reconcile.fluxcd.io/requestedAt";
  /** The CRD default of spec.interval. */
  static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(5);
  /** How soon an unreachable or not-yet-existing source is tried again, when the interval is longer. */
  static final Duration RETRY_AFTER_UNAVAILABLE = Duration.ofSeconds(10);

  private static final Logger LOG = LoggerFactory.getLogger(ComposedBundleReconciler.class);
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private final BundleComposers composers;
  private final Clock clock;
  private final Map<String, Check> lastChecks = new ConcurrentHashMap<>();
  private final SimpleInboundEventSource<ComposedBundle> rechecks = new SimpleInboundEventSource<>("bundle-rechecks");
  private volatile IndexedResourceCache<ComposedBundle> bundles;
  private InformerEventSource<JenkinsVersionProfile, ComposedBundle> profiles;
  private InformerEventSource<ProvisioningDefaults, ComposedBundle> defaults;
  private InformerEventSource<CatalogItem, ComposedBundle> catalogItems;

  public ComposedBundleReconciler(BundleComposers composers, Clock clock) {
    this.composers = composers;
    this.clock = clock;
  }

  @Override
  public List<EventSource<?, ComposedBundle>> prepareEventSources(EventSourceContext<ComposedBundle> context) {
    IndexedResourceCache<ComposedBundle> primaries = context.getPrimaryCache();
    bundles = primaries;
    profiles = new InformerEventSource<>(InformerEventSourceConfiguration.from(JenkinsVersionProfile.class,
            ComposedBundle.class)
        .withSecondaryToPrimaryMapper(profile -> ids(primaries.list(b -> profileName(b.getSpec())
            .filter(profile.getMetadata().getName()::equals).isPresent())))
        .build(), context);
    defaults = new InformerEventSource<>(InformerEventSourceConfiguration.from(ProvisioningDefaults.class,
            ComposedBundle.class)
        .withSecondaryToPrimaryMapper(d -> ids(primaries.list(b -> b.getSpec().versionProfileRef == null)))
        .build(), context);
    // A catalog item's new revision concerns the bundles that name it.
    catalogItems = new InformerEventSource<>(InformerEventSourceConfiguration.from(CatalogItem.class,
            ComposedBundle.class)
        .withSecondaryToPrimaryMapper(item -> ids(primaries.list(item.getMetadata().getNamespace(),
            b -> catalogItemNames(b.getSpec()).contains(item.getMetadata().getName()))))
        .build(), context);
    return List.of(rechecks, profiles, defaults, catalogItems);
  }

  private static Set<ResourceID> ids(java.util.stream.Stream<ComposedBundle> bundles) {
    return bundles.map(ResourceID::fromResource).collect(java.util.stream.Collectors.toSet());
  }

  /** Every ComposedBundle the operator follows, from its cache; empty before the operator started. */
  public List<ComposedBundle> followed() {
    IndexedResourceCache<ComposedBundle> cache = bundles;
    return cache == null ? List.of() : cache.list().toList();
  }

  /** Checks the bundle's sources again now, as if its interval had elapsed (a push notification said one changed). */
  public void recheckNow(ResourceID bundle) {
    lastChecks.remove(bundle.getNamespace().orElse("") + "/" + bundle.getName());
    rechecks.propagateEvent(bundle);
  }

  @Override
  public UpdateControl<ComposedBundle> reconcile(ComposedBundle bundle, Context<ComposedBundle> context) {
    KubernetesClient client = context.getClient();
    String key = bundle.getMetadata().getNamespace() + "/" + bundle.getMetadata().getName();
    ComposedBundleSpec spec = bundle.getSpec();
    Duration interval = Intervals.parse(spec.interval, DEFAULT_INTERVAL);
    long generation = bundle.getMetadata().getGeneration() == null ? 0 : bundle.getMetadata().getGeneration();
    String requestedAt = bundle.getMetadata().getAnnotations() == null ? null
        : bundle.getMetadata().getAnnotations().get(REQUESTED_AT);
    Instant now = clock.instant();
    ComposedBundleStatus previous = bundle.getStatus() == null ? new ComposedBundleStatus() : bundle.getStatus();

    if (Boolean.TRUE.equals(spec.suspend)) {
      ComposedBundleStatus status = copy(previous);
      status.conditions = new Conditions(previous.conditions, generation, now.toString())
          .kstatus(Kstatus.suspended(readyStatus(previous)), new Kstatus.Wording(
              reason(previous, Condition.READY, "Suspended"),
              message(previous, Condition.READY, "suspended; the last render stays in force")),
              SUSPENDED, SUSPENDED)
          .build();
      status.observedGeneration = generation;
      return patchIfChanged(bundle, previous, status, null);
    }

    JenkinsVersionProfile profile = profileName(spec).flatMap(name -> profiles.get(new ResourceID(name))).orElse(null);
    String inputsVersion = inputsVersion(bundle, profile);
    Check last = lastChecks.get(key);
    // the memo holds only while status shows the last check landed: a status patch that failed is retried
    boolean statusLanded = Objects.equals(previous.observedGeneration, generation)
        && Objects.equals(previous.lastHandledReconcileAt, requestedAt);
    if (last != null && statusLanded && last.generation == generation && Objects.equals(last.requestedAt, requestedAt)
        && last.inputsVersion.equals(inputsVersion) && now.isBefore(last.at.plus(interval))) {
      return UpdateControl.<ComposedBundle>noUpdate().rescheduleAfter(Duration.between(now, last.at.plus(interval)));
    }
    lastChecks.put(key, new Check(generation, requestedAt, inputsVersion, now));

    ComposedBundleStatus status = copy(previous);
    status.observedGeneration = generation;
    status.lastHandledReconcileAt = requestedAt;
    Conditions conditions = new Conditions(previous.conditions, generation, now.toString());
    EventRecorder events = new EventRecorder(client, OwnedObjectApplier.FIELD_MANAGER, clock);
    if (profile == null) {
      String message = "no JenkinsVersionProfile: set spec.versionProfileRef, or versionProfileRef on the"
          + " ProvisioningDefaults named default, to a profile that exists";
      status.conditions = conditions.kstatus(Kstatus.STALLED, "ProfileMissing", message).build();
      return patchIfChanged(bundle, previous, status, interval);
    }
    try {
      Composition composition = composers.in(bundle.getMetadata().getNamespace()).compose(new ComposeRequest(key, bundle.getMetadata().getName(), spec.inputs,
          VersionProfileConversion.of(profile), declaredSecrets(spec), JenkinsEnvironment.VARIABLES));
      String digest = composition.rendered().digest();
      LOG.info("event=bundle_checked bundle={} revisions={} digest={} from_memo={}", key, composition.revisions(),
          digest, composition.fromMemo());
      boolean newRevision = status.artifact == null || !digest.equals(status.artifact.digest);
      store(client, bundle, composition);
      status.artifact = artifact(digest, newRevision ? now.toString() : status.artifact.lastUpdateTime);
      status.inputs = inputRevisions(spec, composition.revisions());
      if (composition.stale()) {
        String message = summary(composition.sourceFailure().get()) + "; the last good render " + digest
            + " stays in force";
        sourceUnavailable(conditions, message, spec.interval);
        events.warningOnce(bundle, "SourceUnavailable", message, previous.condition(Condition.READY));
      } else {
        Kstatus.Wording upToDate = new Kstatus.Wording("Succeeded", "up to date");
        conditions.kstatus(Kstatus.READY, new Kstatus.Wording("Succeeded",
            "rendered " + digest + " from " + spec.inputs.size() + " inputs"), upToDate, upToDate);
        if (newRevision) {
          events.normal(bundle, "NewRevision", "rendered " + digest);
        }
      }
    } catch (SourceUnavailableException unreachable) {
      String message = summary(unreachable) + "; nothing rendered yet";
      sourceUnavailable(conditions, message, spec.interval);
      events.warningOnce(bundle, "SourceUnavailable", message, previous.condition(Condition.READY));
    } catch (BundleException failed) {
      String reason = failed.kind() == BundleProblem.Kind.CONFLICT ? "Conflict" : "InvalidInput";
      String message = summary(failed) + (status.artifact != null
          ? "; the last good render " + status.artifact.digest + " stays in force" : "");
      conditions.kstatus(Kstatus.STALLED, reason, message);
      events.warningOnce(bundle, reason, message, previous.condition(Condition.READY));
    } catch (ForeignObjectException foreign) {
      String reason = ForeignObjectException.REASON;
      String message = foreign.getMessage() + (status.artifact != null
          ? "; the last good render " + status.artifact.digest + " stays in force" : "");
      conditions.kstatus(Kstatus.STALLED, reason, message);
      events.warningOnce(bundle, reason, message, previous.condition(Condition.READY));
    }
    status.conditions = conditions.build();
    boolean waiting = status.condition(Condition.READY).map(c -> "SourceUnavailable".equals(c.reason)).orElse(false);
    Duration next = waiting && RETRY_AFTER_UNAVAILABLE.compareTo(interval) < 0 ? RETRY_AFTER_UNAVAILABLE : interval;
    if (waiting) {
      // Due again after the short retry, not the full interval.
      lastChecks.put(key, new Check(generation, requestedAt, inputsVersion, now.minus(interval).plus(next)));
    }
    return patchIfChanged(bundle, previous, status, next);
  }

  @Override
  public DeleteControl cleanup(ComposedBundle bundle, Context<ComposedBundle> context) {
    String key = bundle.getMetadata().getNamespace() + "/" + bundle.getMetadata().getName();
    composers.in(bundle.getMetadata().getNamespace()).forget(key);
    lastChecks.remove(key);
    return DeleteControl.defaultDelete();
  }

  /** Writes the ConfigMap only when the render in force changed: an unchanged bundle issues no write. */
  private static void store(KubernetesClient client, ComposedBundle bundle, Composition composition) {
    String digest = composition.rendered().digest();
    // no informer of these ConfigMaps here: the applier reads the one that exists (one GET)
    OwnedObjectApplier.Outcome outcome = new OwnedObjectApplier(client, KnownObjects.NONE,
        ObjectOwnership::controllerRefusal).apply(BundleConfigMap.render(bundle, composition.rendered()), bundle);
    if (outcome.refusal().isPresent()) {
      throw new ForeignObjectException(outcome.refusal().get());
    }
    if (!outcome.written()) {
      return;
    }
    LOG.info("event=bundle_stored bundle={}/{} digest={}", bundle.getMetadata().getNamespace(),
        bundle.getMetadata().getName(), digest);
  }

  /** The bundle's own versionProfileRef, else the one of the ProvisioningDefaults named default. */
  private Optional<String> profileName(ComposedBundleSpec spec) {
    if (spec.versionProfileRef != null) {
      return Optional.ofNullable(spec.versionProfileRef.name);
    }
    return defaults.get(new ResourceID(ProvisioningDefaults.DEFAULT_NAME))
        .map(d -> d.getSpec() == null || d.getSpec().versionProfileRef == null ? null : d.getSpec().versionProfileRef.name);
  }

  /**
   * What the render depends on besides the spec and the remote sources: the profile's version and the
   * catalog items' versions. A change there renders again before the interval is up.
   */
  private String inputsVersion(ComposedBundle bundle, JenkinsVersionProfile profile) {
    StringBuilder version = new StringBuilder(profile == null ? "-"
        : profile.getMetadata().getName() + "@" + profile.getMetadata().getResourceVersion());
    for (String item : catalogItemNames(bundle.getSpec())) {
      version.append(',').append(item).append('@').append(catalogItems
          .get(new ResourceID(item, bundle.getMetadata().getNamespace()))
          .map(i -> i.getMetadata().getResourceVersion()).orElse("-"));
    }
    return version.toString();
  }

  private static List<String> catalogItemNames(ComposedBundleSpec spec) {
    return spec == null || spec.inputs == null ? List.of() : spec.inputs.stream()
        .filter(i -> i.catalogItem != null).map(i -> i.catalogItem.name).toList();
  }

  private static Set<String> declaredSecrets(ComposedBundleSpec spec) {
    Set<String> names = new TreeSet<>();
    if (spec.secrets != null) {
      spec.secrets.forEach(s -> names.add(s.name));
    }
    return names;
  }

  private static Artifact artifact(String digest, String lastUpdateTime) {
    Artifact artifact = new Artifact();
    // A bundle's revision is its render: the digest names exactly what Controllers receive.
    artifact.revision = digest;
    artifact.digest = digest;
    artifact.lastUpdateTime = lastUpdateTime;
    return artifact;
  }

  private static List<ComposedBundleStatus.InputRevision> inputRevisions(ComposedBundleSpec spec, List<String> revisions) {
    List<ComposedBundleStatus.InputRevision> inputs = new ArrayList<>();
    for (int i = 0; i < revisions.size(); i++) {
      ComposedBundleStatus.InputRevision input = new ComposedBundleStatus.InputRevision();
      input.index = i;
      input.kind = InputRefs.of(i, spec.inputs.get(i)).kind();
      input.revision = revisions.get(i);
      inputs.add(input);
    }
    return inputs;
  }

  /** The first problems of a failure, bounded so a status stays readable. */
  private static String summary(BundleException e) {
    List<String> lines = e.problems().stream().limit(3).map(BundleProblem::format).toList();
    String more = e.problems().size() > 3 ? " (+" + (e.problems().size() - 3) + " more)" : "";
    return String.join("; ", lines) + more;
  }

  private static UpdateControl<ComposedBundle> patchIfChanged(ComposedBundle bundle, ComposedBundleStatus previous,
      ComposedBundleStatus status, Duration reschedule) {
    UpdateControl<ComposedBundle> control;
    if (JSON.asJson(status).equals(JSON.asJson(previous))) {
      control = UpdateControl.noUpdate();
    } else {
      bundle.setStatus(status);
      // Only this reconciler writes status: without a resourceVersion a concurrent metadata change (the
      // finalizer) cannot turn the patch into a 409, after which the check memo would skip the retry.
      bundle.getMetadata().setResourceVersion(null);
      control = UpdateControl.patchStatus(bundle);
    }
    return reschedule == null ? control : control.rescheduleAfter(reschedule);
  }

  private static ComposedBundleStatus copy(ComposedBundleStatus status) {
    return JSON.convertValue(status, ComposedBundleStatus.class);
  }

  private static final Kstatus.Wording SUSPENDED = new Kstatus.Wording("Suspended", "spec.suspend is true");

  /** The last good render (or none) stays while a source is unreachable; the retry heals it without a person. */
  private static void sourceUnavailable(Conditions conditions, String message, String interval) {
    Kstatus.Wording unavailable = new Kstatus.Wording("SourceUnavailable", message);
    conditions.kstatus(Kstatus.RECONCILING, unavailable,
        new Kstatus.Wording("SourceUnavailable", "retrying every " + interval), unavailable);
  }

  private static Condition.Status readyStatus(ComposedBundleStatus status) {
    return status.condition(Condition.READY).map(c -> c.status).orElse(Condition.Status.Unknown);
  }

  private static String reason(ComposedBundleStatus status, String type, String fallback) {
    return status.condition(type).map(c -> c.reason).orElse(fallback);
  }

  private static String message(ComposedBundleStatus status, String type, String fallback) {
    return status.condition(type).map(c -> c.message).orElse(fallback);
  }

  /** When the sources were last checked for a bundle, and for which generation and request. */
  private record Check(long generation, String requestedAt, String inputsVersion, Instant at) {}
}
