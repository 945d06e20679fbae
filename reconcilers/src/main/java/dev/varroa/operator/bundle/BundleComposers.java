package dev.varroa.operator.bundle;

import dev.varroa.bundle.compose.BundleComposer;
import dev.varroa.bundle.compose.SourceInputResolver;
import dev.varroa.bundle.source.FluxArtifactSource;
import dev.varroa.bundle.source.GitBundleSource;
import dev.varroa.bundle.source.OciBundleSource;
import dev.varroa.bundle.source.SourceLimits;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;

/**
 * One composer per namespace, since inputs name objects (catalog items, Flux sources, Secrets) in
 * their bundle's namespace; the Git cache, the sources and the thread pool are shared.
 */
public final class BundleComposers {
  private final KubernetesClient client;
  private final GitBundleSource git;
  private final OciBundleSource oci;
  private final FluxArtifactSource flux;
  private final ExecutorService sourceCalls = BundleComposer.sourceCallPool();
  private final Map<String, BundleComposer> byNamespace = new ConcurrentHashMap<>();

  public BundleComposers(KubernetesClient client, Path cacheDirectory) {
    this(client, cacheDirectory, java.util.Set.of());
  }

  /** @param plainHttpRegistries OCI registries (host:port) reached over plain HTTP, e.g. a local one */
  public BundleComposers(KubernetesClient client, Path cacheDirectory, java.util.Set<String> plainHttpRegistries) {
    this.client = client;
    SourceLimits limits = SourceLimits.DEFAULTS;
    this.git = new GitBundleSource(cacheDirectory, limits);
    this.oci = new OciBundleSource(limits, plainHttpRegistries);
    this.flux = new FluxArtifactSource(limits);
  }

  public BundleComposer in(String namespace) {
    return byNamespace.computeIfAbsent(namespace, ns -> new BundleComposer(sourcesIn(ns), sourceCalls));
  }

  /** The sources as they read inputs of a namespace, for callers that index rather than render. */
  public SourceInputResolver sourcesIn(String namespace) {
    return new SourceInputResolver(git, oci, flux, new ClusterSourceObjects(client, namespace));
  }
}
