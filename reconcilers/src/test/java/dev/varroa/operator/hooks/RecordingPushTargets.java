package dev.varroa.operator.hooks;

import dev.varroa.api.v1alpha1.CatalogSource;
import dev.varroa.api.v1alpha1.ComposedBundle;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Push targets over fixed lists that remember what they were asked to re-check, and why. */
final class RecordingPushTargets implements PushTargets {
  private final List<ComposedBundle> bundles;
  private final List<CatalogSource> sources;
  final List<String> rechecked = new CopyOnWriteArrayList<>();
  final List<String> reasons = new CopyOnWriteArrayList<>();
  final List<dev.varroa.api.v1alpha1.Team> teams = new CopyOnWriteArrayList<>();
  final List<String> runs = new CopyOnWriteArrayList<>();

  RecordingPushTargets(List<ComposedBundle> bundles, List<CatalogSource> sources) {
    this.bundles = bundles;
    this.sources = sources;
  }

  @Override
  public List<ComposedBundle> bundles() {
    return bundles;
  }

  @Override
  public List<CatalogSource> catalogSources() {
    return sources;
  }

  @Override
  public void recheck(ComposedBundle bundle, String why) {
    rechecked.add("ComposedBundle " + bundle.getMetadata().getNamespace() + "/" + bundle.getMetadata().getName());
    reasons.add(why);
  }

  @Override
  public void recheck(CatalogSource source, String why) {
    rechecked.add("CatalogSource " + source.getMetadata().getNamespace() + "/" + source.getMetadata().getName());
    reasons.add(why);
  }

  @Override
  public List<dev.varroa.api.v1alpha1.Team> teams() {
    return teams;
  }

  @Override
  public String run(dev.varroa.api.v1alpha1.Team team, String pipeline, String why) {
    runs.add(team.getMetadata().getNamespace() + "/" + team.getMetadata().getName() + "/" + pipeline + ": " + why);
    return "accepted";
  }
}
