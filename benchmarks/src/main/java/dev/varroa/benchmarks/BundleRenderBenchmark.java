package dev.varroa.benchmarks;

import static dev.varroa.benchmarks.bundle.Samples.figure;
import static dev.varroa.benchmarks.bundle.Samples.median;
import static dev.varroa.benchmarks.bundle.Samples.min;

import dev.varroa.api.v1alpha1.BundleInput;
import dev.varroa.api.v1alpha1.GitSource;
import dev.varroa.benchmarks.bundle.BenchmarkRepository;
import dev.varroa.benchmarks.bundle.ColdCompose;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleFiles;
import dev.varroa.bundle.JenkinsEnvironment;
import dev.varroa.bundle.RenderRequest;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.VersionProfile;
import dev.varroa.bundle.compose.BundleComposer;
import dev.varroa.bundle.compose.ComposeRequest;
import dev.varroa.bundle.compose.Composition;
import dev.varroa.bundle.compose.InputRefs;
import dev.varroa.bundle.compose.SourceInputResolver;
import dev.varroa.bundle.compose.SourceObjects;
import dev.varroa.bundle.render.BundleRenderer;
import dev.varroa.bundle.render.RenderedBundle;
import dev.varroa.bundle.source.FluxArtifactSource;
import dev.varroa.bundle.source.GitBundleSource;
import dev.varroa.bundle.source.OciBundleSource;
import dev.varroa.bundle.source.SourceLimits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * Issue 3's benchmark: a ComposedBundle of 100 Git inputs x 10 JCasC fragments (about 1 MB of YAML) from local
 * repositories (file://). Measures the cold compose (nothing cached: ls-remote, depth-1 fetch, parse, merge,
 * render, digest) twice over: the first compose in this fresh JVM, and composes in a JVM warmed by earlier cold
 * composes, as in the long-lived operator; then the parts of a render on their own, the warm render (inputs in
 * memory) and the check of 100 unchanged inputs (ls-remote only, zero fetches). Ends with one
 * {@code figure: NAME VALUE UNIT} line per figure.
 * Run: make bench-bundles (or java -cp ... dev.varroa.benchmarks.BundleRenderBenchmark [inputs] [fragments]).
 */
public final class BundleRenderBenchmark {
  /** Cold composes that warm the JVM before the measured ones: JIT compilation mostly stops after about 30. */
  private static final int COLD_WARMUP_RUNS = 30;
  /** The namespace the inputs are read for (one tenant: the Git cache is keyed by it). */
  private static final String TENANT = "bench";
  private static final int COLD_RUNS = 9;
  private static final int OLD_COLD_RUNS = 5;
  private static final int WARM_RUNS = 30;
  private static final int WARMUP_RUNS = 40;
  private static final int FRESH_RENDER_RUNS = 9;
  private static final byte[] DIGEST_SEPARATOR = "\n---\n".getBytes(StandardCharsets.US_ASCII);

  private static int coldComposes;

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

    SourceLimits limits = SourceLimits.DEFAULTS;
    OciBundleSource oci = new OciBundleSource(limits);
    FluxArtifactSource flux = new FluxArtifactSource(limits);
    // One pool for every composer, as the operator has.
    ExecutorService sourceCalls = BundleComposer.sourceCallPool();
    Path caches = work.resolve("caches");
    ColdCompose firstJvm = coldCompose(caches, oci, flux, sourceCalls, request);
    print("cold compose, first in this JVM", firstJvm);
    // The earlier figure's method: the median of the first 5 cold composes in a fresh JVM.
    double[] firstFive = new double[OLD_COLD_RUNS];
    firstFive[0] = firstJvm.millis();
    for (int run = 0; run < COLD_WARMUP_RUNS; run++) {
      ColdCompose warmup = coldCompose(caches, oci, flux, sourceCalls, request);
      if (run + 1 < OLD_COLD_RUNS) {
        firstFive[run + 1] = warmup.millis();
      }
    }
    List<ColdCompose> cold = new ArrayList<>();
    for (int run = 0; run < COLD_RUNS; run++) {
      cold.add(coldCompose(caches, oci, flux, sourceCalls, request));
      print("cold compose, warm JVM, run " + (run + 1), cold.get(run));
    }
    String digest = firstJvm.composition().rendered().digest();
    for (ColdCompose compose : cold) {
      if (!compose.composition().rendered().digest().equals(digest)) {
        throw new IllegalStateException("two cold composes of the same inputs gave different digests");
      }
    }

    List<ResolvedInput> resolved = resolvedInputs(request, lastCache(caches), oci, flux);
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

    double[] fresh = new double[FRESH_RENDER_RUNS];
    for (int run = 0; run < FRESH_RENDER_RUNS; run++) {
      RenderRequest freshBytes = new RenderRequest("bundle", copies(resolved), profile, Set.of(),
          JenkinsEnvironment.VARIABLES);
      long start = System.nanoTime();
      renderer.render(freshBytes);
      fresh[run] = millis(start);
    }
    System.out.printf("render of freshly fetched bytes (parse + merge + plugins + outputs), serial: median %.1f ms%n",
        median(fresh));

    RenderedBundle rendered = renderer.render(renderRequest);
    byte[] jcasc = rendered.jcascYaml();
    byte[] pluginsTxt = rendered.pluginsTxt();
    double[] digests = new double[WARM_RUNS];
    for (int run = 0; run < WARM_RUNS; run++) {
      long start = System.nanoTime();
      String computed = digest(jcasc, pluginsTxt);
      digests[run] = millis(start);
      if (!computed.equals(rendered.digest())) {
        throw new IllegalStateException("the digest of BUNDLES.md §5 is not " + rendered.digest());
      }
    }

    BundleComposer composer = cold.get(COLD_RUNS - 1).composer();
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
    System.out.printf("rendered digest %s, %d overrides%n", digest,
        firstJvm.composition().rendered().lock().overrides().size());

    List<String> figures = new ArrayList<>();
    figures.add(figure("cold_compose_first_jvm", firstJvm.millis(), "ms"));
    figures.add(figure("cold_compose_first_jvm_cpu", firstJvm.cpuMillis(), "ms"));
    figures.add(figure("cold_compose_first_jvm_revision_checks", firstJvm.revisionChecksMillis(), "ms"));
    figures.add(figure("cold_compose_first_jvm_fetches", firstJvm.fetchesMillis(), "ms"));
    figures.add(figure("cold_compose_first_jvm_after_sources", firstJvm.afterSourcesMillis(), "ms"));
    figures.add(figure("cold_compose_first5_p50", median(firstFive), "ms"));
    figures.add(figure("cold_compose_p50", medianOf(cold, ColdCompose::millis), "ms"));
    figures.add(figure("cold_compose_min", min(values(cold, ColdCompose::millis)), "ms"));
    figures.add(figure("cold_compose_cpu_p50", medianOf(cold, ColdCompose::cpuMillis), "ms"));
    figures.add(figure("cold_compose_jit_p50", medianOf(cold, ColdCompose::jitMillis), "ms"));
    figures.add(figure("cold_compose_revision_checks_p50", medianOf(cold, ColdCompose::revisionChecksMillis), "ms"));
    figures.add(figure("cold_compose_fetches_p50", medianOf(cold, ColdCompose::fetchesMillis), "ms"));
    figures.add(figure("cold_compose_after_sources_p50", medianOf(cold, ColdCompose::afterSourcesMillis), "ms"));
    figures.add(figure("serial_parse_p50", median(fresh) - median(warm), "ms"));
    figures.add(figure("serial_merge_plugins_outputs_p50", median(warm) - median(digests), "ms"));
    figures.add(figure("serial_digest_p50", median(digests), "ms"));
    figures.add(figure("warm_render_p50", median(warm), "ms"));
    figures.add(figure("warm_render_min", min(warm), "ms"));
    figures.add(figure("check_unchanged_p50", median(check), "ms"));
    figures.add(figure("check_unchanged_min", min(check), "ms"));
    figures.add(figure("check_unchanged_fetches", after.fetches() - before.fetches(), "count"));
    figures.add(figure("check_unchanged_renders", after.renders() - before.renders(), "count"));
    figures.forEach(System.out::println);
  }

  /**
   * One cold compose on a new, empty cache folder under {@code caches}. Folders are kept until the end: deleting
   * thousands of files between runs would make the next run's file creation slower than an operator's ever is
   * (ext4 without a journal scans past recently deleted inodes).
   */
  private static ColdCompose coldCompose(Path caches, OciBundleSource oci, FluxArtifactSource flux,
      ExecutorService sourceCalls, ComposeRequest request) throws Exception {
    Path cache = caches.resolve("cache-" + coldComposes++);
    SourceInputResolver sources = new SourceInputResolver(localGit(cache), oci, flux, SourceObjects.none(TENANT));
    return ColdCompose.run(sources, sourceCalls, request);
  }

  // The repositories are local (file://), which only an offline reader may read, as varroactl does.
  private static GitBundleSource localGit(Path cache) {
    return new GitBundleSource(cache, SourceLimits.DEFAULTS, GitBundleSource.FileUrls.ALLOWED);
  }

  /** The folder of the last cold compose, whose cache the checks and the render measurements read. */
  private static Path lastCache(Path caches) {
    return caches.resolve("cache-" + (coldComposes - 1));
  }

  private static void print(String what, ColdCompose compose) {
    System.out.printf("%s: %.0f ms (CPU %.0f ms, JIT %.0f ms; revision checks %.0f ms, fetches %.0f ms,"
            + " after the last source call %.0f ms)%n", what, compose.millis(), compose.cpuMillis(),
        compose.jitMillis(), compose.revisionChecksMillis(), compose.fetchesMillis(), compose.afterSourcesMillis());
  }

  /** The inputs read again from a warm Git cache, to time the render alone. */
  private static List<ResolvedInput> resolvedInputs(ComposeRequest request, Path warmCache, OciBundleSource oci,
      FluxArtifactSource flux) throws BundleException {
    List<ResolvedInput> resolved = new ArrayList<>();
    SourceInputResolver resolver = new SourceInputResolver(localGit(warmCache), oci, flux, SourceObjects.none(TENANT));
    for (int i = 0; i < request.inputs().size(); i++) {
      var ref = InputRefs.of(i, request.inputs().get(i));
      resolved.add(resolver.fetch(ref, request.inputs().get(i), resolver.currentRevision(ref, request.inputs().get(i))));
    }
    return resolved;
  }

  /** The same inputs in new byte arrays, as a fetch delivers them: nothing of them has been parsed. */
  private static List<ResolvedInput> copies(List<ResolvedInput> inputs) {
    List<ResolvedInput> copies = new ArrayList<>();
    for (ResolvedInput input : inputs) {
      Map<String, byte[]> files = new TreeMap<>();
      input.files().files().forEach((path, bytes) -> files.put(path, bytes.clone()));
      copies.add(new ResolvedInput(input.ref(), input.revision(), BundleFiles.of(files)));
    }
    return copies;
  }

  /** BUNDLES.md §5: SHA-256 over jcasc.yaml, the 5 bytes {@code \n---\n}, plugins.txt. */
  private static String digest(byte[] jcascYaml, byte[] pluginsTxt) throws Exception {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    sha.update(jcascYaml);
    sha.update(DIGEST_SEPARATOR);
    sha.update(pluginsTxt);
    return "sha256:" + HexFormat.of().formatHex(sha.digest());
  }

  private static double medianOf(List<ColdCompose> composes, ToDoubleFunction<ColdCompose> figure) {
    return median(values(composes, figure));
  }

  private static double[] values(List<ColdCompose> composes, ToDoubleFunction<ColdCompose> figure) {
    return composes.stream().mapToDouble(figure).toArray();
  }

  private static double millis(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e6;
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
