package dev.varroa.testfixtures.helm;

import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.process.ThrowawayDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Varroa chart and the helm built by test-fixtures/helm/install.sh: renders it with given values
 * files and --set flags, and runs any other helm command (lint, unittest, install --dry-run) the way
 * a user would. Helm's own config, cache and data go to a throwaway folder, so a user's repositories
 * or plugins never change a result.
 */
public final class HelmChart implements AutoCloseable {
  static final Duration HELM_TIMEOUT = Duration.ofMinutes(2);
  private static final String MISSING_HELM =
      "helm or the helm-unittest plugin not found under %s: run `make deps` (it runs test-fixtures/helm/install.sh,"
          + " which builds them from Go modules)";

  private final Path chart;
  private final Path helm;
  private final Path plugins;
  private final ThrowawayDirectory home = ThrowawayDirectory.create("varroa-helm-home-");

  private HelmChart(Path chart, Path helm, Path plugins) {
    this.chart = chart;
    this.helm = helm;
    this.plugins = plugins;
  }

  /** The chart in the repository's chart/ folder. */
  public static HelmChart varroa() {
    return of(ProjectLayout.root().resolve("chart"));
  }

  public static HelmChart of(Path chart) {
    Path home = installDirectory();
    Path helm = home.resolve("bin/helm");
    Path plugins = home.resolve("plugins");
    if (!Files.isExecutable(helm) || !Files.isExecutable(plugins.resolve("unittest/untt"))) {
      throw new IllegalStateException(String.format(MISSING_HELM, home));
    }
    return new HelmChart(chart, helm, plugins);
  }

  /** Where install.sh puts helm: ${VARROA_CACHE:-~/.cache/varroa}/helm. */
  static Path installDirectory() {
    String cache = System.getenv("VARROA_CACHE");
    Path root = cache == null || cache.isBlank()
        ? Path.of(System.getProperty("user.home"), ".cache", "varroa") : Path.of(cache);
    return root.resolve("helm");
  }

  public Path chartDirectory() {
    return chart;
  }

  public Path helmBinary() {
    return helm;
  }

  /** {@code helm template} of release varroa: the rendered manifests, parsed. */
  public RenderedManifests template(Render render) {
    List<String> args = new ArrayList<>(List.of("template", "varroa", chart.toString()));
    args.addAll(render.arguments(chart));
    return RenderedManifests.parse(run(args).requireSuccess().output());
  }

  /** Runs helm with the arguments and returns what it printed and how it ended; fails only if helm cannot run. */
  public Result run(String... args) {
    return run(List.of(args));
  }

  public Result run(List<String> args) {
    return run(HELM_TIMEOUT, args);
  }

  /** Like {@link #run(List)} with a deadline of its own: an install that waits for pods takes minutes. */
  public Result run(Duration timeout, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(helm.toString());
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    Map<String, String> env = builder.environment();
    env.put("HELM_PLUGINS", plugins.toString());
    env.put("HELM_CONFIG_HOME", home.resolve("config").toString());
    env.put("HELM_CACHE_HOME", home.resolve("cache").toString());
    env.put("HELM_DATA_HOME", home.resolve("data").toString());
    env.remove("KUBECONFIG");
    try {
      Process process = builder.start();
      process.getOutputStream().close();
      // Read while helm runs: a full pipe would block it.
      byte[] out = process.getInputStream().readAllBytes();
      if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("helm did not finish in " + timeout.toSeconds() + " s: " + command);
      }
      return new Result(args, process.exitValue(), new String(out, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running helm", e);
    }
  }

  @Override
  public void close() {
    home.close();
  }

  /** What one helm command printed (stdout and stderr together) and its exit code. */
  public record Result(List<String> args, int exitCode, String output) {
    public boolean succeeded() {
      return exitCode == 0;
    }

    public Result requireSuccess() {
      if (!succeeded()) {
        throw new IllegalStateException("helm " + String.join(" ", args) + " exited with " + exitCode + ":\n" + output);
      }
      return this;
    }
  }

  /**
   * The arguments of one render: namespace, values files in order, then --set flags in order, and the API versions
   * helm template takes as installed (--api-versions, what .Capabilities.APIVersions.Has sees without a cluster).
   */
  public record Render(String namespace, List<Path> valuesFiles, List<String> sets, boolean includeCrds,
      List<String> apiVersions) {
    public Render {
      valuesFiles = List.copyOf(valuesFiles);
      sets = List.copyOf(sets);
      apiVersions = List.copyOf(apiVersions);
    }

    public static Render in(String namespace) {
      return new Render(namespace, List.of(), List.of(), false, List.of());
    }

    /** A values file; a relative path is taken from the chart folder (e.g. "values-hive.yaml"). */
    public Render values(Path file) {
      List<Path> files = new ArrayList<>(valuesFiles);
      files.add(file);
      return new Render(namespace, files, sets, includeCrds, apiVersions);
    }

    /** One --set flag, e.g. set("cluster.name", "member-1") or set("networkPolicy.apiServer.cidrs", "{10.0.0.1/32}"). */
    public Render set(String path, String value) {
      List<String> all = new ArrayList<>(sets);
      all.add(path + "=" + value);
      return new Render(namespace, valuesFiles, all, includeCrds, apiVersions);
    }

    public Render withCrds() {
      return new Render(namespace, valuesFiles, sets, true, apiVersions);
    }

    /** An API the cluster serves, e.g. "postgresql.cnpg.io/v1/Cluster" (CloudNativePG installed). */
    public Render withApiVersion(String apiVersion) {
      List<String> all = new ArrayList<>(apiVersions);
      all.add(apiVersion);
      return new Render(namespace, valuesFiles, sets, includeCrds, all);
    }

    /** The flags for helm template, install or lint; relative values files are taken from the chart folder. */
    public List<String> arguments(Path chart) {
      List<String> args = new ArrayList<>(List.of("--namespace", namespace));
      valuesFiles.forEach(f -> args.addAll(List.of("--values", chart.resolve(f).toString())));
      sets.forEach(s -> args.addAll(List.of("--set", s)));
      apiVersions.forEach(a -> args.addAll(List.of("--api-versions", a)));
      if (includeCrds) {
        args.add("--include-crds");
      }
      return args;
    }
  }
}
