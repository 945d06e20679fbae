package dev.varroa.operator.catalog;

import dev.varroa.api.v1alpha1.Artifact;
import dev.varroa.api.v1alpha1.BundleInput;
import dev.varroa.api.v1alpha1.CatalogItem;
import dev.varroa.api.v1alpha1.CatalogItemSpec;
import dev.varroa.api.v1alpha1.CatalogItemStatus;
import dev.varroa.api.v1alpha1.CatalogSource;
import dev.varroa.api.v1alpha1.CatalogSourceStatus;
import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.GitSource;
import dev.varroa.api.v1alpha1.OciSource;
import dev.varroa.api.v1alpha1.ObjectRef;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleProblem;
import dev.varroa.bundle.InputRef;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.SourceUnavailableException;
import dev.varroa.bundle.compose.InputRefs;
import dev.varroa.bundle.compose.SourceInputResolver;
import dev.varroa.operator.bundle.BundleComposers;
import dev.varroa.operator.bundle.Intervals;
import dev.varroa.operator.apply.ForeignObjectException;
import dev.varroa.operator.apply.KnownObjects;
import dev.varroa.operator.apply.ObjectOwnership;
import dev.varroa.operator.apply.OwnedObjectApplier;
import dev.varroa.operator.status.Conditions;
import dev.varroa.operator.status.Kstatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.IndexedResourceCache;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Indexes each CatalogSource: every folder items/&lt;name&gt;/ at the source's current revision
 * becomes a CatalogItem it owns; items that disappear are deleted.
 */
@ControllerConfiguration(name = "catalogsource")
public final class CatalogSourceReconciler implements Reconciler<CatalogSource> {
  static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(5);
  private static final Pattern ITEM = Pattern.compile("^items/([a-z0-9]([-a-z0-9]*[a-z0-9])?)/.+");
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private final BundleComposers composers;
  private final Clock clock;
  private final SimpleInboundEventSource<CatalogSource> rechecks = new SimpleInboundEventSource<>("catalog-rechecks");
  private volatile IndexedResourceCache<CatalogSource> sources;

  public CatalogSourceReconciler(BundleComposers composers, Clock clock) {
    this.composers = composers;
    this.clock = clock;
  }

  @Override
  public List<EventSource<?, CatalogSource>> prepareEventSources(EventSourceContext<CatalogSource> context) {
    sources = context.getPrimaryCache();
    return List.of(rechecks);
  }

  /** Every CatalogSource the operator follows, from its cache; empty before the operator started. */
  public List<CatalogSource> followed() {
    IndexedResourceCache<CatalogSource> cache = sources;
    return cache == null ? List.of() : cache.list().toList();
  }

  /** Indexes the source again now; every pass checks its revision, so an event is all it takes. */
  public void recheckNow(ResourceID source) {
    rechecks.propagateEvent(source);
  }

  @Override
  public UpdateControl<CatalogSource> reconcile(CatalogSource source, Context<CatalogSource> context) {
    KubernetesClient client = context.getClient();
    CatalogSourceStatus previous = source.getStatus() == null ? new CatalogSourceStatus() : source.getStatus();
    CatalogSourceStatus status = JSON.convertValue(previous, CatalogSourceStatus.class);
    long generation = source.getMetadata().getGeneration() == null ? 0 : source.getMetadata().getGeneration();
    status.observedGeneration = generation;
    Duration interval = Intervals.parse(source.getSpec().interval, DEFAULT_INTERVAL);
    Conditions conditions = new Conditions(previous.conditions, generation, clock.instant().toString());
    if (Boolean.TRUE.equals(source.getSpec().suspend)) {
      conditions.kstatus(Kstatus.suspended(Condition.Status.Unknown), "Suspended", "spec.suspend is true");
      status.conditions = conditions.build();
      return patchIfChanged(source, previous, status, null);
    }
    SourceInputResolver sources = composers.sourcesIn(source.getMetadata().getNamespace());
    BundleInput whole = wholeSource(source);
    InputRef ref = InputRefs.of(0, whole);
    try {
      String revision = sources.currentRevision(ref, whole);
      if (status.artifact == null || !revision.equals(status.artifact.revision)
          || !Objects.equals(previous.observedGeneration, generation)) {
        ResolvedInput files = sources.fetch(ref, whole, revision);
        TreeSet<String> items = new TreeSet<>();
        files.files().files().keySet().forEach(path -> {
          Matcher m = ITEM.matcher(path);
          if (m.matches()) {
            items.add(m.group(1));
          }
        });
        applyItems(client, source, items, revision);
        status.items = List.copyOf(items);
        Artifact artifact = new Artifact();
        artifact.revision = revision;
        artifact.lastUpdateTime = clock.instant().toString();
        status.artifact = artifact;
      }
      Kstatus.Wording upToDate = new Kstatus.Wording("Indexed", "up to date");
      conditions.kstatus(Kstatus.READY, new Kstatus.Wording("Indexed",
          status.items == null ? "no items" : status.items.size() + " items at " + revision), upToDate, upToDate);
    } catch (SourceUnavailableException unreachable) {
      String message = unreachable.problems().get(0).format() + "; the items indexed before stay";
      Kstatus.Wording unavailable = new Kstatus.Wording("SourceUnavailable", message);
      conditions.kstatus(Kstatus.RECONCILING, unavailable, new Kstatus.Wording("SourceUnavailable", "retrying"),
          unavailable);
    } catch (BundleException invalid) {
      String message = invalid.problems().get(0).format();
      conditions.kstatus(Kstatus.STALLED, "InvalidInput", message);
    } catch (ForeignObjectException foreign) {
      String message = foreign.getMessage() + "; the items indexed before stay";
      conditions.kstatus(Kstatus.STALLED, ForeignObjectException.REASON, message);
    }
    status.conditions = conditions.build();
    return patchIfChanged(source, previous, status, interval);
  }

  /** The source's own location with no folder: the whole tree, to find every items/&lt;name&gt;/. */
  private static BundleInput wholeSource(CatalogSource source) {
    BundleInput input = new BundleInput();
    if (source.getSpec().git != null) {
      input.git = JSON.convertValue(source.getSpec().git, GitSource.class);
      input.git.path = null;
    } else {
      input.oci = JSON.convertValue(source.getSpec().oci, OciSource.class);
      input.oci.path = null;
    }
    return input;
  }

  private static void applyItems(KubernetesClient client, CatalogSource source, TreeSet<String> items, String revision) {
    String namespace = source.getMetadata().getNamespace();
    // every item is checked before any is written: a refusal leaves the index as it was
    for (String name : items) {
      CatalogItem existing = client.resources(CatalogItem.class).inNamespace(namespace).withName(name).get();
      Optional<String> refusal = existing == null ? Optional.empty()
          : ObjectOwnership.controllerRefusal(existing, source);
      if (refusal.isPresent()) {
        throw new ForeignObjectException(refusal.get());
      }
    }
    // checked above, all before any: the applier only writes
    OwnedObjectApplier applier = new OwnedObjectApplier(client, KnownObjects.NONE, ObjectOwnership::controllerRefusal);
    for (String name : items) {
      CatalogItem item = new CatalogItem();
      item.getMetadata().setName(name);
      item.getMetadata().setNamespace(namespace);
      item.getMetadata().setLabels(java.util.Map.of("varroa.dev/catalog-source", source.getMetadata().getName()));
      CatalogItemSpec spec = new CatalogItemSpec();
      spec.sourceRef = ObjectRef.of(source.getMetadata().getName());
      spec.path = "items/" + name;
      item.setSpec(spec);
      CatalogItem applied = applier.forceApply(item, source);
      CatalogItemStatus itemStatus = new CatalogItemStatus();
      itemStatus.revision = revision;
      itemStatus.observedGeneration = applied.getMetadata().getGeneration();
      if (applied.getStatus() == null || !revision.equals(applied.getStatus().revision)) {
        applied.setStatus(itemStatus);
        client.resource(applied).updateStatus();
      }
    }
    client.resources(CatalogItem.class).inNamespace(namespace)
        .withLabel("varroa.dev/catalog-source", source.getMetadata().getName()).list().getItems().stream()
        .filter(existing -> !items.contains(existing.getMetadata().getName()))
        .forEach(stale -> client.resource(stale).delete());
  }

  private static UpdateControl<CatalogSource> patchIfChanged(CatalogSource source, CatalogSourceStatus previous,
      CatalogSourceStatus status, Duration reschedule) {
    UpdateControl<CatalogSource> control;
    if (JSON.asJson(status).equals(JSON.asJson(previous))) {
      control = UpdateControl.noUpdate();
    } else {
      source.setStatus(status);
      // Only this reconciler writes status: without a resourceVersion a concurrent metadata change (the
      // finalizer) cannot turn the patch into a 409, after which the check memo would skip the retry.
      source.getMetadata().setResourceVersion(null);
      control = UpdateControl.patchStatus(source);
    }
    return reschedule == null ? control : control.rescheduleAfter(reschedule);
  }
}
