package dev.varroa.benchmarks;

import dev.varroa.api.v1alpha1.BundleInput;
import dev.varroa.api.v1alpha1.GitSource;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.JenkinsEnvironment;
import dev.varroa.bundle.RenderRequest;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.VersionProfile;
import dev.varroa.bundle.compose.BundleComposer;
import dev.varroa.bundle.compose.ComposeRequest;
import dev.varroa.bundle.compose.Composition;
import dev.varroa.bundle.compose.SourceInputResolver;
import dev.varroa.bundle.compose.SourceObjects;
import dev.varroa.bundle.render.BundleRenderer;
import dev.varroa.bundle.source.FluxArtifactSource;
import dev.varroa.bundle.source.GitBundleSource;
import dev.varroa.bundle.source.OciBundleSource;
import dev.varroa.bundle.source.SourceLimits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;

/**
 * Issue 3's benchmark: a ComposedBundle of 100 Git inputs x 10 JCasC fragments (about 1 MB of YAML)
 * from local repositories. Prints cold compose (fresh cache: ls-remote, shallow fetch, render), warm
 * render (inputs in memory), and the check of 100 unchanged inputs (ls-remote only, zero fetches).
 * Run: make bench-bundles (or java -cp ... dev.varroa.benchmarks.BundleRenderBenchmark [inputs] [fragments]).
 */
public final class BundleRenderBenchmark {
  private static final int COLD_RUNS = 5;
  private static final int WARM_RUNS = 30;
  private static final int WARMUP_RUNS = 40;

  private BundleRenderBenchmark() {}

  public static void main(String[] args) throws Exception {
    int inputs = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    int fragments = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    Path work = Files.createTempDirectory("varroa-bench-bundles");
    try {
      run(work, inputs, fragments);
    } finally {
      deleteTree(work);
    }
  }

  private static void run(Path work, int inputCount, int fragments) throws Exception {
    long yamlBytes = 0;
    List<BundleInput> inputs = new ArrayList<>();
    for (int i = 0; i < inputCount; i++) {
      Path repo = work.resolve("repos/input-" + i);
      yamlBytes += BenchmarkRepository.create(repo, i, fragments);
      GitSource git = new GitSource();
      git.url = repo.toUri().toString();
      git.ref = new GitSource.GitRef();
      git.ref.branch = "main";
      BundleInput input = new BundleInput();
      input.git = git;
      inputs.add(input);
    }
    VersionProfile profile = new VersionProfile("bench", "2.555.2", "jenkins/jenkins:2.555.2-lts-jdk21",
        List.of(new VersionProfile.PluginVersion("configuration-as-code", "2006.v001a_2ca_6b_574")), "");
    ComposeRequest request = new ComposeRequest("bench/bundle", "bundle", inputs, profile, Set.of(),
        JenkinsEnvironment.VARIABLES);
    System.out.printf("bundle: %d Git inputs x %d fragments, %.2f MB of JCasC YAML%n", inputCount, fragments,
        yamlBytes / 1e6);

    double[] cold = new double[COLD_RUNS];
    BundleComposer composer = null;
    Composition first = null;
    for (int run = 0; run < COLD_RUNS; run++) {
      composer = composer(work.resolve("cache-" + run));
      long start = System.nanoTime();
      first = composer.compose(request);
      cold[run] = millis(start);
    }
    System.out.printf("cold compose (fresh cache: %d ls-remote + %d shallow fetch + render): median %.0f ms, min %.0f ms%n",
        inputCount, inputCount, median(cold), min(cold));

    List<ResolvedInput> resolved = resolvedInputs(request, work.resolve("cache-0"));
    BundleRenderer renderer = new BundleRenderer();
    RenderRequest renderRequest = new RenderRequest("bundle", resolved, profile, Set.of(), JenkinsEnvironment.VARIABLES);
    for (int i = 0; i < WARMUP_RUNS; i++) {
      renderer.render(renderRequest);
    }
    double[] warm = new double[WARM_RUNS];
    for (int run = 0; run < WARM_RUNS; run++) {
      long start = System.nanoTime();
      renderer.render(renderRequest);
      warm[run] = millis(start);
    }
    System.out.printf("warm render (inputs in memory, merge + plugins + outputs): median %.1f ms, min %.1f ms%n",
        median(warm), min(warm));

    BundleComposer.Counters before = composer.counters();
    double[] check = new double[WARM_RUNS];
    for (int run = 0; run < WARM_RUNS; run++) {
      long start = System.nanoTime();
      Composition unchanged = composer.compose(request);
      check[run] = millis(start);
      if (!unchanged.fromMemo()) {
        throw new IllegalStateException("an unchanged bundle was rendered again");
      }
    }
    BundleComposer.Counters after = composer.counters();
    System.out.printf("check %d unchanged inputs (ls-remote each, memo hit): median %.0f ms, min %.0f ms;"
            + " fetches %d, renders %d over %d checks%n", inputCount, median(check), min(check),
        after.fetches() - before.fetches(), after.renders() - before.renders(), WARM_RUNS);
    System.out.printf("rendered digest %s, %d overrides%n", first.rendered().digest(),
        first.rendered().lock().overrides().size());
  }

  /** The inputs read again from a warm Git cache, to time the render alone. */
  private static List<ResolvedInput> resolvedInputs(ComposeRequest request, Path warmCache) throws BundleException {
    List<ResolvedInput> resolved = new ArrayList<>();
    SourceInputResolver resolver = resolver(warmCache);
    for (int i = 0; i < request.inputs().size(); i++) {
      var ref = dev.varroa.bundle.compose.InputRefs.of(i, request.inputs().get(i));
      resolved.add(resolver.fetch(ref, request.inputs().get(i), resolver.currentRevision(ref, request.inputs().get(i))));
    }
    return resolved;
  }

  private static BundleComposer composer(Path cache) {
    return new BundleComposer(resolver(cache));
  }

  private static SourceInputResolver resolver(Path cache) {
    SourceLimits limits = SourceLimits.DEFAULTS;
    return new SourceInputResolver(new GitBundleSource(cache, limits), new OciBundleSource(limits),
        new FluxArtifactSource(limits), SourceObjects.none());
  }

  private static double millis(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e6;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static double min(double[] values) {
    return Arrays.stream(values).min().orElse(Double.NaN);
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** Writes one input's repository: fragments with own keys, a shared key later inputs override, a cloud list. */
  private static final class BenchmarkRepository {
    static long create(Path dir, int input, int fragments) throws Exception {
      Files.createDirectories(dir.resolve("jcasc"));
      long bytes = 0;
      for (int f = 0; f < fragments; f++) {
        StringBuilder yaml = new StringBuilder("jenkins:\n  systemMessage: \"input ").append(input).append("\"\n");
        yaml.append("  clouds:\n    - kubernetes:\n        name: k8s-").append(input).append('\n')
            .append("        namespace: jobs-").append(input).append('\n');
        yaml.append("unclassified:\n  input").append(input).append(":\n    fragment").append(f).append(":\n");
        for (int k = 0; yaml.length() < 1000; k++) {
          yaml.append("      key").append(k).append(": \"value ").append(input).append('-').append(f).append('-')
              .append(k).append("\"\n");
        }
        bytes += yaml.length();
        Files.writeString(dir.resolve(String.format("jcasc/%02d-fragment.yaml", f)), yaml.toString());
      }
      try (Git git = Git.init().setDirectory(dir.toFile()).setInitialBranch("main").call()) {
        git.add().addFilepattern(".").call();
        git.commit().setMessage("fragments").setAuthor("bench", "bench@varroa.dev")
            .setCommitter("bench", "bench@varroa.dev").call();
      }
      return bytes;
    }
  }
}
