package dev.varroa.operator.hooks;

import dev.varroa.api.v1alpha1.CatalogSource;
import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.operator.bundle.ComposedBundleReconciler;
import dev.varroa.operator.catalog.CatalogSourceReconciler;
import dev.varroa.operator.events.EventRecorder;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.List;

/** The running reconcilers as push targets: their caches, their recheckNow, and a PushReceived event. */
public final class ReconcilerPushTargets implements PushTargets {
  /** The reason of the event recorded on each object a push re-checked. */
  public static final String PUSH_RECEIVED = "PushReceived";

  private final ComposedBundleReconciler bundles;
  private final CatalogSourceReconciler catalogSources;
  private final EventRecorder events;

  private final java.util.function.Supplier<PipelinePushes> pipelines;

  public ReconcilerPushTargets(ComposedBundleReconciler bundles, CatalogSourceReconciler catalogSources,
      EventRecorder events) {
    this(bundles, catalogSources, events, () -> PipelinePushes.NONE);
  }

  /** @param pipelines what runs a Team's pipeline on a push, once the operator has its control channel */
  public ReconcilerPushTargets(ComposedBundleReconciler bundles, CatalogSourceReconciler catalogSources,
      EventRecorder events, java.util.function.Supplier<PipelinePushes> pipelines) {
    this.bundles = bundles;
    this.catalogSources = catalogSources;
    this.events = events;
    this.pipelines = pipelines;
  }

  @Override
  public List<dev.varroa.api.v1alpha1.Team> teams() {
    return pipelines.get().teams();
  }

  @Override
  public String run(dev.varroa.api.v1alpha1.Team team, String pipeline, String why) {
    return pipelines.get().run(team, pipeline, why);
  }

  @Override
  public List<ComposedBundle> bundles() {
    return bundles.followed();
  }

  @Override
  public List<CatalogSource> catalogSources() {
    return catalogSources.followed();
  }

  @Override
  public void recheck(ComposedBundle bundle, String why) {
    bundles.recheckNow(ResourceID.fromResource(bundle));
    events.normal(bundle, PUSH_RECEIVED, why);
  }

  @Override
  public void recheck(CatalogSource source, String why) {
    catalogSources.recheckNow(ResourceID.fromResource(source));
    events.normal(source, PUSH_RECEIVED, why);
  }
}
