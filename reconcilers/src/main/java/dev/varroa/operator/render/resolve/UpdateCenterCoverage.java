package dev.varroa.operator.render.resolve;

import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.api.v1alpha1.UpdateCenterStatus;
import dev.varroa.bundle.render.PluginLock;
import dev.varroa.bundle.render.RenderedBundle;
import dev.varroa.operator.render.naming.UpdateCenterNames;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Whether a managed UpdateCenter holds every plugin version a Controller's lock names: the plugins
 * init container installs only from it, so a lacking plugin would fail the pod's roll. The answer is
 * the ReconcileBlocked message, naming the plugin, its version and the fix. An external update site
 * is not checked: the operator cannot know what it holds.
 */
public final class UpdateCenterCoverage {
  /** Plugins named in one message; the rest are counted. */
  static final int NAMED = 3;

  private UpdateCenterCoverage() {}

  public static Optional<String> lacking(UpdateCenter updateCenter, String bundleName, RenderedBundle rendered) {
    if (updateCenter.getSpec() == null || updateCenter.getSpec().managed == null) {
      return Optional.empty();
    }
    String name = updateCenter.getMetadata().getName();
    UpdateCenterStatus status = updateCenter.getStatus();
    if (status == null || status.availablePlugins == null) {
      return Optional.of("UpdateCenter " + name + " has not reported which plugins it holds yet (its Deployment "
          + UpdateCenterNames.of(name).deployment() + " is starting or unreachable); fix: wait for it to run, see"
          + " kubectl describe updatecenter " + name);
    }
    Set<String> held = new HashSet<>(status.availablePlugins);
    List<PluginLock> lacking = rendered.lock().plugins().stream()
        .filter(p -> !held.contains(p.id() + ":" + p.version())).toList();
    if (lacking.isEmpty()) {
      return Optional.empty();
    }
    String named = lacking.stream().limit(NAMED).map(p -> p.id() + " " + p.version() + reason(status, p))
        .collect(Collectors.joining(", "));
    String more = lacking.size() > NAMED ? " and " + (lacking.size() - NAMED) + " more" : "";
    String plugins = lacking.stream().limit(NAMED).map(p -> "--plugin " + p.id() + ":" + p.version())
        .collect(Collectors.joining(" "));
    return Optional.of("UpdateCenter " + name + " does not hold plugin " + named + more + ", which the lock of "
        + bundleName + " names; fix: on a connected machine run `varroactl updatecenter export " + plugins
        + "` (or -f with the JenkinsVersionProfile) and `varroactl updatecenter import` the archive into it, or set"
        + " spec.managed.upstream.url on UpdateCenter " + name + " to an update site that has it");
  }

  private static String reason(UpdateCenterStatus status, PluginLock plugin) {
    if (status.missing == null) {
      return "";
    }
    return status.missing.stream().filter(m -> plugin.id().equals(m.id) && plugin.version().equals(m.version))
        .findFirst().map(m -> " (" + m.reason + ")").orElse("");
  }
}
