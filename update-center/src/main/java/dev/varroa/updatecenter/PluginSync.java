package dev.varroa.updatecenter;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass over the storage: read the wanted list, scan the held files, fetch what is missing from the
 * upstream (checked against its SHA-256) when one is configured, and build the {@link Holdings} to serve.
 * Every missing plugin gets a reason a person can act on.
 */
public final class PluginSync {
  static final String NO_UPSTREAM = "not held and no upstream update site is configured; fix: import it with"
      + " `varroactl updatecenter import`, or set spec.managed.upstream.url on the UpdateCenter";
  private static final Logger LOG = LoggerFactory.getLogger(PluginSync.class);

  private final PluginStore store;
  private final Path wantedFile;
  private final Optional<UpstreamSite> upstream;
  private final String siteId;
  private final String baseUrl;
  private final Supplier<SigningIdentity> signing;

  public PluginSync(PluginStore store, Path wantedFile, Optional<UpstreamSite> upstream, String siteId, String baseUrl,
      Supplier<SigningIdentity> signing) {
    this.store = store;
    this.wantedFile = wantedFile;
    this.upstream = upstream;
    this.siteId = siteId;
    this.baseUrl = baseUrl;
    this.signing = signing;
  }

  /** A full pass: fetches what is missing from the upstream. */
  public Holdings run() throws IOException {
    return run(true);
  }

  /**
   * @param fetch false for a pass that only reads the storage (at start, so the service answers at once
   *     while a long first fetch runs in the background)
   */
  public Holdings run(boolean fetch) throws IOException {
    WantedList.Parsed wanted = WantedList.read(wantedFile);
    List<String> problems = new ArrayList<>();
    wanted.problems().forEach(p -> problems.add(wantedFile + " " + p));
    PluginStore.Scan scan = store.scan();
    problems.addAll(scan.problems());
    SortedMap<PluginCoordinates, HeldPlugin> held = new TreeMap<>(scan.held());
    SortedSet<PluginCoordinates> absent = new TreeSet<>(wanted.plugins());
    absent.removeAll(held.keySet());
    SortedMap<PluginCoordinates, String> missing = new TreeMap<>();
    if (!absent.isEmpty()) {
      if (upstream.isEmpty()) {
        absent.forEach(p -> missing.put(p, NO_UPSTREAM));
      } else if (!fetch) {
        absent.forEach(p -> missing.put(p, "not held yet: the first fetch from " + upstream.get().updateCenter()
            + " is under way"));
      } else {
        fetch(upstream.get(), absent, held, missing);
      }
    }
    return Holdings.of(held, new TreeSet<>(wanted.plugins()), missing, problems, siteId, baseUrl, signing.get());
  }

  private void fetch(UpstreamSite site, SortedSet<PluginCoordinates> absent, Map<PluginCoordinates, HeldPlugin> held,
      Map<PluginCoordinates, String> missing) {
    UpstreamSite.Resolution resolution;
    try {
      resolution = site.locate(absent);
    } catch (UpstreamUnavailableException e) {
      String reason = "not held, and the upstream update site cannot be read (" + e.getMessage()
          + "); fix: make it reachable, or import the plugin with `varroactl updatecenter import`";
      absent.forEach(p -> missing.put(p, reason));
      LOG.warn("event=upstream_unavailable upstream={} missing={} reason=\"{}\"", site.updateCenter(), absent.size(),
          e.getMessage());
      return;
    }
    resolution.unavailable().forEach((p, why) -> missing.put(p, "not held: " + why));
    for (UpstreamPlugin plugin : resolution.located().values()) {
      try (InputStream in = site.open(plugin)) {
        HeldPlugin stored = store.store(plugin.coordinates(), in, plugin.sha256());
        held.put(plugin.coordinates(), stored);
        LOG.info("event=plugin_fetched plugin={} version={} from={}", plugin.coordinates().id(),
            plugin.coordinates().version(), plugin.url());
      } catch (DigestMismatchException e) {
        missing.put(plugin.coordinates(), "the download from " + plugin.url() + " was refused: " + e.getMessage());
        LOG.warn("event=plugin_refused plugin={} version={} reason=\"{}\"", plugin.coordinates().id(),
            plugin.coordinates().version(), e.getMessage());
      } catch (IOException e) {
        missing.put(plugin.coordinates(), "the download from " + plugin.url() + " failed: " + e.getMessage());
        LOG.warn("event=plugin_fetch_failed plugin={} version={} reason=\"{}\"", plugin.coordinates().id(),
            plugin.coordinates().version(), e.getMessage());
      }
    }
  }

  /** The store this sync reads and writes. */
  public PluginStore store() {
    return store;
  }

}
