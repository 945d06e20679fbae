package dev.varroa.bundle.compose;

import dev.varroa.api.v1alpha1.BundleInput;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleProblem;
import dev.varroa.bundle.InputRef;
import dev.varroa.bundle.RenderRequest;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.SourceUnavailableException;
import dev.varroa.bundle.render.BundleRenderer;
import dev.varroa.bundle.render.RenderedBundle;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Composes ComposedBundles: checks each input's revision cheaply, renders from a memo when nothing
 * changed (zero fetches), fetches only inputs whose revision moved, and keeps the last good render
 * in force when a source cannot be reached. Thread-safe; one instance serves every bundle.
 */
public final class BundleComposer {
  /** Fetched inputs kept for reuse by other bundles and later renders. */
  static final int FETCHED_INPUTS_KEPT = 1024;

  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  /** Source calls in flight at once across all bundles: enough to hide network latency. */
  static final int SOURCE_PARALLELISM = 8;

  private final InputSource source;
  private final ExecutorService sourceCalls;
  private final BundleRenderer renderer = new BundleRenderer();
  private final Map<String, ResolvedInput> fetched = java.util.Collections.synchronizedMap(
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ResolvedInput> eldest) {
          return size() > FETCHED_INPUTS_KEPT;
        }
      });
  private final Map<String, Memo> lastGood = new ConcurrentHashMap<>();
  private final AtomicLong revisionChecks = new AtomicLong();
  private final AtomicLong fetches = new AtomicLong();
  private final AtomicLong renders = new AtomicLong();

  public BundleComposer(InputSource source) {
    this(source, sourceCallPool());
  }

  /** A composer whose source calls run on a shared pool, e.g. one composer per namespace in the operator. */
  public BundleComposer(InputSource source, ExecutorService sourceCalls) {
    this.source = source;
    this.sourceCalls = sourceCalls;
  }

  /** Daemon threads for source calls, {@link #SOURCE_PARALLELISM} at once. */
  public static ExecutorService sourceCallPool() {
    return Executors.newFixedThreadPool(SOURCE_PARALLELISM, runnable -> {
      Thread thread = new Thread(runnable, "bundle-source");
      thread.setDaemon(true);
      return thread;
    });
  }

  public Composition compose(ComposeRequest request) throws BundleException {
    List<InputRef> refs = new ArrayList<>();
    for (int i = 0; i < request.inputs().size(); i++) {
      refs.add(InputRefs.of(i, request.inputs().get(i)));
    }
    Memo previous = lastGood.get(request.key());
    List<String> revisions;
    try {
      revisions = eachInput(refs.size(), i -> {
        revisionChecks.incrementAndGet();
        return source.currentRevision(refs.get(i), request.inputs().get(i));
      });
    } catch (SourceUnavailableException unreachable) {
      if (previous != null) {
        return new Composition(previous.rendered(), previous.revisions(), true, Optional.of(unreachable));
      }
      throw unreachable;
    }

    String fingerprint = fingerprint(request, revisions);
    if (previous != null && previous.fingerprint().equals(fingerprint)) {
      return new Composition(previous.rendered(), previous.revisions(), true, Optional.empty());
    }

    List<ResolvedInput> resolved;
    try {
      resolved = eachInput(refs.size(), i -> fetchOnce(refs.get(i), request.inputs().get(i), revisions.get(i)));
    } catch (SourceUnavailableException unreachable) {
      if (previous != null) {
        return new Composition(previous.rendered(), previous.revisions(), true, Optional.of(unreachable));
      }
      throw unreachable;
    }
    renders.incrementAndGet();
    RenderedBundle rendered = renderer.render(new RenderRequest(request.bundleName(), resolved, request.profile(),
        request.secrets(), request.environment()));
    lastGood.put(request.key(), new Memo(fingerprint, rendered, List.copyOf(revisions)));
    return new Composition(rendered, List.copyOf(revisions), false, Optional.empty());
  }

  /** The last render that succeeded for a bundle key, kept in force while a newer one fails. */
  public Optional<RenderedBundle> lastGood(String key) {
    return Optional.ofNullable(lastGood.get(key)).map(Memo::rendered);
  }

  /** Forgets a deleted bundle. */
  public void forget(String key) {
    lastGood.remove(key);
  }

  public Counters counters() {
    return new Counters(revisionChecks.get(), fetches.get(), renders.get());
  }

  /**
   * Runs one source call per input, in parallel: remote calls mostly wait on the network. Results
   * keep input order; failures are merged into one exception, unavailable if any input was.
   */
  private <T> List<T> eachInput(int count, InputCall<T> call) throws BundleException {
    List<Future<T>> futures = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int index = i;
      futures.add(sourceCalls.submit(() -> call.apply(index)));
    }
    List<T> results = new ArrayList<>();
    List<BundleProblem> problems = new ArrayList<>();
    boolean unavailable = false;
    for (Future<T> future : futures) {
      try {
        results.add(future.get());
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof BundleException failed)) {
          throw new IllegalStateException("a source failed unexpectedly: " + e.getCause(), e.getCause());
        }
        problems.addAll(failed.problems());
        unavailable |= failed instanceof SourceUnavailableException;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while reading sources", e);
      }
    }
    if (problems.isEmpty()) {
      return results;
    }
    if (unavailable) {
      // The last good render stays in force; every problem is still reported.
      throw new SourceUnavailableException(problems);
    }
    throw new BundleException(problems);
  }

  /** One source call for the input at an index. */
  @FunctionalInterface
  private interface InputCall<T> {
    T apply(int index) throws BundleException;
  }

  private ResolvedInput fetchOnce(InputRef ref, BundleInput input, String revision) throws BundleException {
    String key = JSON.asJson(input) + "@" + revision;
    ResolvedInput cached = fetched.get(key);
    if (cached != null) {
      // Same content, new position: re-label it so errors and the lock name this bundle's input.
      return new ResolvedInput(ref, cached.revision(), cached.files());
    }
    fetches.incrementAndGet();
    ResolvedInput fresh = source.fetch(ref, input, revision);
    renderer.parseAhead(fresh);
    fetched.put(key, fresh);
    return fresh;
  }

  private static String fingerprint(ComposeRequest request, List<String> revisions) {
    return JSON.asJson(request.inputs()) + revisions + JSON.asJson(request.profile())
        + new java.util.TreeSet<>(request.secrets()) + new java.util.TreeSet<>(request.environment());
  }

  /** How much work the composer did: revision checks, fetches and renders since it started. */
  public record Counters(long revisionChecks, long fetches, long renders) {}

  private record Memo(String fingerprint, RenderedBundle rendered, List<String> revisions) {}
}
