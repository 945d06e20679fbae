package dev.varroa.operator.render.resolve;

import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.JenkinsVersionProfileSpec;
import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.bundle.render.PluginLock;
import dev.varroa.bundle.render.PluginSource;
import dev.varroa.bundle.render.RenderedBundle;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A cell's plugin list (docs/cells.md, "The generated layer"): the bundle's, plus the plugins the generated layer's
 * jobs need. The pool owns job-dsl: a cell takes the version the JenkinsVersionProfile lists (or, when it lists none,
 * the newest the managed UpdateCenter holds) whatever another layer pins, and says which pin it ignored. The other
 * needed plugins keep the bundle's version when it has one and are added at the profile's (or update center's)
 * otherwise.
 */
public final class CellPlugins {
  /** The plugin the pool owns: a cell's folders and jobs are job-dsl scripts. */
  public static final String JOB_DSL = "job-dsl";
  /**
   * What the generated layer's folders, folder authorization, folder credentials and Pipeline jobs from Git need;
   * plain-credentials and ssh-credentials hold the secretText and sshPrivateKey credential kinds.
   */
  public static final List<String> NEEDED = List.of(JOB_DSL, "cloudbees-folder", "credentials", "git", "matrix-auth",
      "plain-credentials", "ssh-credentials", "workflow-cps", "workflow-job");

  private CellPlugins() {}

  /** What the resolution found. */
  public sealed interface Outcome {}

  /**
   * The cell's plugins.txt and the ignored pin, worded for status.
   *
   * @param pluginsText {@code id:version} lines sorted by id, as the bundle's
   */
  public record Resolved(String pluginsText, Optional<String> ignoredPin) implements Outcome {}

  /** A needed plugin has no version anywhere; the message names it, the profile and the fix. */
  public record Refused(String message) implements Outcome {}

  /**
   * @param bundleName how messages name the bundle, e.g. {@code ComposedBundle team-a}
   * @param updateCenter the UpdateCenter plugins install from; only a managed one says which versions it holds
   */
  public static Outcome resolve(RenderedBundle bundle, String bundleName, JenkinsVersionProfile profile,
      Optional<UpdateCenter> updateCenter) {
    Map<String, PluginLock> locked = new TreeMap<>();
    bundle.lock().plugins().forEach(p -> locked.put(p.id(), p));
    Map<String, String> listed = new TreeMap<>();
    JenkinsVersionProfileSpec spec = profile.getSpec();
    if (spec != null && spec.plugins != null) {
      spec.plugins.forEach(p -> listed.putIfAbsent(p.id, p.version));
    }
    String profileName = profile.getMetadata().getName();
    Map<String, String> lines = new TreeMap<>();
    bundle.pluginsText().lines().filter(l -> !l.isBlank()).forEach(l -> lines.put(idOf(l), l.strip()));
    Optional<String> ignoredPin = Optional.empty();
    for (String id : NEEDED) {
      PluginLock bundles = locked.get(id);
      if (bundles != null && !id.equals(JOB_DSL)) {
        continue;
      }
      Optional<String> version = Optional.ofNullable(listed.get(id)).map(v -> v + " from JenkinsVersionProfile "
          + profileName).or(() -> newestHeld(updateCenter, id).map(v -> v + " from UpdateCenter "
          + updateCenter.get().getMetadata().getName()));
      if (version.isEmpty()) {
        return new Refused("a cell needs plugin " + id + " (its generated layer: " + String.join(", ", NEEDED)
            + "), which JenkinsVersionProfile " + profileName + " does not list"
            + updateCenter.filter(CellPlugins::managed).map(u -> " and UpdateCenter " + u.getMetadata().getName()
                + " does not hold").orElse("") + "; fix: add " + id + " to JenkinsVersionProfile " + profileName
            + " spec.plugins");
      }
      String chosen = version.get().substring(0, version.get().indexOf(' '));
      if (bundles != null && bundles.source() != PluginSource.PROFILE) {
        ignoredPin = Optional.of("a cell ignores a pin on " + id + ": " + bundleName + " (its plugins) pins " + id + " "
            + bundles.version() + "; the pool owns " + id + " and the cell uses " + version.get());
      }
      lines.put(id, id + ":" + chosen);
    }
    return new Resolved(String.join("\n", new ArrayList<>(lines.values())) + "\n", ignoredPin);
  }

  private static boolean managed(UpdateCenter updateCenter) {
    return updateCenter.getSpec() != null && updateCenter.getSpec().managed != null;
  }

  /** The newest version of a plugin a managed UpdateCenter reports holding; empty for an external update site. */
  private static Optional<String> newestHeld(Optional<UpdateCenter> updateCenter, String id) {
    return updateCenter.filter(CellPlugins::managed).map(UpdateCenter::getStatus)
        .map(s -> s.availablePlugins).orElse(List.of()).stream()
        .filter(p -> p.startsWith(id + ":")).map(p -> p.substring(id.length() + 1))
        .max(CellPlugins::compareVersions);
  }

  /** Dotted versions compared part by part, numerically where both parts are numbers (1.10 after 1.9). */
  static int compareVersions(String a, String b) {
    String[] left = a.split("[.-]");
    String[] right = b.split("[.-]");
    for (int i = 0; i < Math.min(left.length, right.length); i++) {
      int order = left[i].matches("\\d+") && right[i].matches("\\d+")
          ? Comparator.<java.math.BigInteger>naturalOrder().compare(new java.math.BigInteger(left[i]),
              new java.math.BigInteger(right[i]))
          : left[i].compareTo(right[i]);
      if (order != 0) {
        return order;
      }
    }
    return Integer.compare(left.length, right.length);
  }

  private static String idOf(String line) {
    int colon = line.indexOf(':');
    return (colon < 0 ? line : line.substring(0, colon)).strip();
  }
}
