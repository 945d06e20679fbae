package dev.varroa.gateway.stream;

import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.mite.v1.InstalledPlugin;
import dev.varroa.protocol.mite.v1.ObservedState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What this gateway sees of its mites, as activity (docs/activity.md): a stream opened or ended, and Jenkins'
 * version or plugin set changing in what the mite observes. The last known version and plugins of each controller
 * are remembered across its reconnects (a pod restart that upgraded Jenkins is a change), in memory and bounded:
 * the first observation on a gateway that never saw the controller sets the baseline without an event.
 */
public final class MiteActivity {

  public static final String CONNECTED = "mite.connected";
  public static final String DISCONNECTED = "mite.disconnected";
  public static final String VERSION_CHANGED = "jenkins.version_changed";
  public static final String PLUGINS_CHANGED = "jenkins.plugins_changed";
  public static final String GATEWAY_STARTED = "gateway.started";
  /** Controllers whose last observation is remembered; the least recently seen is forgotten first. */
  static final int REMEMBERED_CONTROLLERS = 10_000;
  /** A plugin list attribute names at most this many plugins, then says how many more. */
  static final int LISTED_PLUGINS = 50;

  private record Known(String jenkinsVersion, Map<String, String> plugins) {
  }

  private final ActivityPublisher publisher;
  private final String gatewayId;
  private final Map<String, Known> known = Collections.synchronizedMap(
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Known> eldest) {
          return size() > REMEMBERED_CONTROLLERS;
        }
      });

  public MiteActivity(ActivityPublisher publisher, String gatewayId) {
    this.publisher = publisher;
    this.gatewayId = gatewayId;
  }

  /** Once per gateway start. */
  public void gatewayStarted(String version) {
    publisher.global(GATEWAY_STARTED, "gateway " + gatewayId + " started", Map.of("gateway", gatewayId,
        "version", version));
  }

  void connected(MiteSession session) {
    ControllerIdentity id = session.identity();
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("gateway", gatewayId);
    attributes.put("session", session.sessionId());
    attributes.put("miteVersion", session.hello().getMiteVersion());
    attributes.put("pod", session.hello().getPodName());
    attributes.put("jenkinsVersion", session.observed().getJenkinsVersion());
    publisher.controller(id.namespace(), id.name(), CONNECTED, "mite connected to gateway " + gatewayId, attributes);
    observed(session, session.observed());
  }

  void disconnected(MiteSession session) {
    ControllerIdentity id = session.identity();
    publisher.controller(id.namespace(), id.name(), DISCONNECTED, "mite disconnected from gateway " + gatewayId,
        Map.of("gateway", gatewayId, "session", session.sessionId()));
  }

  /** A new observed state of the session; only what Jenkins reports while reachable counts. */
  void observed(MiteSession session, ObservedState state) {
    ControllerIdentity id = session.identity();
    String key = id.routeKey() + "/" + id.uid();
    Known before = known.get(key);
    String version = state.getJenkinsVersion().isEmpty() && before != null ? before.jenkinsVersion()
        : state.getJenkinsVersion();
    Map<String, String> plugins = plugins(state);
    if (plugins.isEmpty() && before != null) {
      // An unreachable or booting Jenkins reports no plugins; that is not an uninstall.
      plugins = before.plugins();
    }
    known.put(key, new Known(version, plugins));
    if (before == null) {
      return;
    }
    if (!version.isEmpty() && !before.jenkinsVersion().isEmpty() && !version.equals(before.jenkinsVersion())) {
      publisher.controller(id.namespace(), id.name(), VERSION_CHANGED,
          "Jenkins " + before.jenkinsVersion() + " -> " + version,
          Map.of("from", before.jenkinsVersion(), "to", version));
    }
    if (!before.plugins().isEmpty() && !plugins.equals(before.plugins())) {
      pluginsChanged(id, before.plugins(), plugins);
    }
  }

  private void pluginsChanged(ControllerIdentity id, Map<String, String> before, Map<String, String> after) {
    List<String> added = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    List<String> updated = new ArrayList<>();
    after.forEach((plugin, version) -> {
      String old = before.get(plugin);
      if (old == null) {
        added.add(plugin + ":" + version);
      } else if (!old.equals(version)) {
        updated.add(plugin + ":" + old + "->" + version);
      }
    });
    before.keySet().stream().filter(plugin -> !after.containsKey(plugin)).forEach(removed::add);
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("added", list(added));
    attributes.put("removed", list(removed));
    attributes.put("updated", list(updated));
    attributes.put("addedCount", Integer.toString(added.size()));
    attributes.put("removedCount", Integer.toString(removed.size()));
    attributes.put("updatedCount", Integer.toString(updated.size()));
    publisher.controller(id.namespace(), id.name(), PLUGINS_CHANGED, "plugins: " + added.size() + " added, "
        + updated.size() + " updated, " + removed.size() + " removed", attributes);
  }

  private static Map<String, String> plugins(ObservedState state) {
    Map<String, String> plugins = new TreeMap<>();
    for (InstalledPlugin plugin : state.getPluginsList()) {
      plugins.put(plugin.getId(), plugin.getVersion());
    }
    return plugins;
  }

  private static String list(List<String> entries) {
    if (entries.size() <= LISTED_PLUGINS) {
      return String.join(",", entries);
    }
    return String.join(",", entries.subList(0, LISTED_PLUGINS)) + ",... " + (entries.size() - LISTED_PLUGINS) + " more";
  }
}
