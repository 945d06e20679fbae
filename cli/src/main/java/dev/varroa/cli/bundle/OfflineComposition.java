package dev.varroa.cli.bundle;

import dev.varroa.api.v1alpha1.BundleInput;
import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.SecretVariable;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.JenkinsEnvironment;
import dev.varroa.bundle.VersionProfile;
import dev.varroa.bundle.compose.BundleComposer;
import dev.varroa.bundle.compose.ComposeRequest;
import dev.varroa.bundle.compose.SourceInputResolver;
import dev.varroa.bundle.compose.VersionProfileConversion;
import dev.varroa.bundle.render.RenderedBundle;
import dev.varroa.bundle.source.FluxArtifactSource;
import dev.varroa.bundle.source.GitBundleSource;
import dev.varroa.bundle.source.OciBundleSource;
import dev.varroa.bundle.source.SourceLimits;
import dev.varroa.cli.input.InvalidInputException;
import dev.varroa.cli.input.ManifestSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/** Composes one ComposedBundle from -f files with the operator's own composer and sources. */
public final class OfflineComposition {
  private final BundleFileOptions options;
  private final ManifestSet manifests;

  public OfflineComposition(BundleFileOptions options) {
    this(options, ManifestSet.read(options.files));
  }

  /** Composes from objects already read, e.g. by `varroactl render controller`. */
  public OfflineComposition(BundleFileOptions options, ManifestSet manifests) {
    this.options = options;
    this.manifests = manifests;
  }

  public RenderedBundle render() throws BundleException {
    return render(UnaryOperator.identity());
  }

  /** Renders with each input first passed through {@code rewrite}, e.g. to pin Git inputs to a revision. */
  RenderedBundle render(UnaryOperator<BundleInput> rewrite) throws BundleException {
    ComposedBundle bundle = bundle();
    SourceLimits limits = SourceLimits.DEFAULTS;
    SourceInputResolver resolver = new SourceInputResolver(
        // Offline, on the user's own disk: file:// (e.g. a CI checkout) is what this command is for.
        new GitBundleSource(options.cacheDirectory().resolve("git"), limits, GitBundleSource.FileUrls.ALLOWED),
        new OciBundleSource(limits, Set.copyOf(options.plainHttpRegistries)),
        new FluxArtifactSource(limits),
        new ManifestSourceObjects(manifests));
    List<BundleInput> inputs = bundle.getSpec().inputs.stream().map(rewrite).toList();
    ComposeRequest request = new ComposeRequest(bundle.getMetadata().getName(), bundle.getMetadata().getName(), inputs,
        profile(bundle), secrets(bundle), JenkinsEnvironment.VARIABLES);
    return new BundleComposer(resolver).compose(request).rendered();
  }

  public ComposedBundle bundle() {
    List<ComposedBundle> bundles = manifests.all(ComposedBundle.class);
    if (options.bundle != null) {
      return manifests.named(ComposedBundle.class, options.bundle).orElseThrow(() ->
          new InvalidInputException("no ComposedBundle named " + options.bundle + " in the files given with -f"));
    }
    if (bundles.size() == 1) {
      return bundles.get(0);
    }
    throw new InvalidInputException(bundles.isEmpty()
        ? "no ComposedBundle in the files given with -f"
        : bundles.size() + " ComposedBundles in the files (" + String.join(", ",
            bundles.stream().map(b -> b.getMetadata().getName()).toList()) + "): choose one with --bundle");
  }

  private VersionProfile profile(ComposedBundle bundle) {
    String wanted = options.profile != null ? options.profile
        : bundle.getSpec().versionProfileRef != null ? bundle.getSpec().versionProfileRef.name : null;
    List<JenkinsVersionProfile> profiles = manifests.all(JenkinsVersionProfile.class);
    JenkinsVersionProfile profile;
    if (wanted != null) {
      profile = manifests.named(JenkinsVersionProfile.class, wanted).orElseThrow(() -> new InvalidInputException(
          "no JenkinsVersionProfile named " + wanted + " in the files given with -f: add its file with -f"));
    } else if (profiles.size() == 1) {
      profile = profiles.get(0);
    } else {
      throw new InvalidInputException(profiles.isEmpty()
          ? "no JenkinsVersionProfile in the files given with -f: add one with -f (rendering needs the plugin set)"
          : profiles.size() + " JenkinsVersionProfiles and the bundle names none: choose one with --profile");
    }
    return VersionProfileConversion.of(profile);
  }

  /** Names the bundle declares, and those of Controllers in the files that use this bundle. */
  private Set<String> secrets(ComposedBundle bundle) {
    Set<String> names = new TreeSet<>();
    if (bundle.getSpec().secrets != null) {
      bundle.getSpec().secrets.forEach(s -> names.add(s.name));
    }
    for (Controller controller : manifests.all(Controller.class)) {
      if (controller.getSpec() != null && controller.getSpec().composedBundleRef != null
          && bundle.getMetadata().getName().equals(controller.getSpec().composedBundleRef.name)
          && controller.getSpec().secrets != null) {
        controller.getSpec().secrets.stream().map((SecretVariable s) -> s.name).forEach(names::add);
      }
    }
    return names;
  }
}
