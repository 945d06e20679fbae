package dev.varroa.cli.bundle;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The options every `varroactl bundle` command shares: where the objects are and which to use. */
public final class BundleFileOptions {
  @Option(names = "-f", required = true, paramLabel = "PATH",
      description = "YAML file or folder of them (multi-document); repeatable. Holds the ComposedBundle, its"
          + " JenkinsVersionProfile, and any CatalogSource, CatalogItem, Flux source or Secret its inputs need.")
  List<Path> files = new ArrayList<>();

  @Option(names = "--bundle", paramLabel = "NAME", description = "The ComposedBundle to use when the files hold several.")
  String bundle;

  @Option(names = "--profile", paramLabel = "NAME",
      description = "The JenkinsVersionProfile to use; default: the one the bundle names, or the only one in the files.")
  String profile;

  @Option(names = "--cache-dir", paramLabel = "DIR",
      description = "Where fetched Git repositories are cached; default: $XDG_CACHE_HOME/varroa or ~/.cache/varroa.")
  Path cacheDir;

  @Option(names = "--plain-http-registry", paramLabel = "HOST:PORT",
      description = "An OCI registry reached over plain HTTP instead of HTTPS (e.g. a local test registry); repeatable.")
  List<String> plainHttpRegistries = new ArrayList<>();

  /** Options naming the bundle and profile to compose, for commands that choose them from other objects. */
  public static BundleFileOptions of(List<Path> files, String bundle, String profile, Path cacheDir,
      List<String> plainHttpRegistries) {
    BundleFileOptions options = new BundleFileOptions();
    options.files = new ArrayList<>(files);
    options.bundle = bundle;
    options.profile = profile;
    options.cacheDir = cacheDir;
    options.plainHttpRegistries = new ArrayList<>(plainHttpRegistries);
    return options;
  }

  Path cacheDirectory() {
    if (cacheDir != null) {
      return cacheDir;
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("varroa");
  }
}
