package dev.varroa.bundle.render;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleProblem;
import dev.varroa.bundle.InputRef;
import dev.varroa.bundle.RenderRequest;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.VersionProfile;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Renders a ComposedBundle's resolved inputs and profile into one desired state (BUNDLES.md §2–§6).
 * Pure: no network, clock or filesystem; the same request gives the same bytes on any machine.
 * Stateless and thread-safe.
 *
 * <p>Order of work: read every input's directory, merge JCasC (inputs in order, files in order, then
 * the profile's {@code spec.jcascOverlay}), check {@code ${NAME}} references, resolve plugins
 * against the profile, refuse a realm or strategy that leaves Jenkins open ({@link SecurityCheck}).
 * Every problem found along the way is collected and thrown together in one
 * {@link BundleException} (a conflict outranks invalid input for the exit code).
 */
public final class BundleRenderer {
  /** How problems and provenance name the profile's JCasC overlay. */
  public static final String OVERLAY_FILE = "spec.jcascOverlay";

  public RenderedBundle render(RenderRequest request) throws BundleException {
    VersionProfile profile = request.profile();
    if (profile == null) {
      throw new BundleException(new BundleProblem(BundleProblem.Kind.INVALID, null, null, null,
          "no JenkinsVersionProfile for bundle " + request.bundleName(),
          "name one in spec.versionProfileRef of the ComposedBundle or the Controller"));
    }
    Problems problems = new Problems();
    List<BundleDirectory> directories = new ArrayList<>();
    for (ResolvedInput input : request.inputs()) {
      directories.add(BundleDirectoryReader.read(input, problems));
    }

    JcascMerger merger = new JcascMerger(problems);
    directories.forEach(directory -> directory.fragments().forEach(merger::merge));
    Source profileSource = Source.of(profile);
    overlay(profile, profileSource, problems).ifPresent(merger::merge);

    Map<String, String> variables = new LinkedHashMap<>();
    directories.forEach(directory -> directory.variables().forEach(v -> variables.put(v.name(), v.value())));
    Set<String> defined = new HashSet<>(variables.keySet());
    defined.addAll(request.secrets());
    defined.addAll(request.environment());
    VariableCheck.check(merger.root(), defined, problems);
    SecurityCheck.check(merger.root(), problems);

    List<PluginLock> plugins = PluginResolver.resolve(directories, profile, profileSource, problems);
    problems.throwIfAny();

    byte[] jcasc = JcascWriter.write(merger.root());
    byte[] pluginsTxt = PluginsTxt.write(plugins);
    String digest = BundleDigest.of(jcasc, pluginsTxt);
    BundleLock lock = new BundleLock(digest, profile.jenkinsVersion(), lockInputs(request.inputs()), plugins,
        List.copyOf(new TreeSet<>(variables.keySet())), List.copyOf(new TreeSet<>(request.secrets())),
        merger.overrides());
    return new RenderedBundle(jcasc, pluginsTxt, LockWriter.write(lock), lock, variables,
        new Provenance(merger.root(), merger.removals()));
  }

  /**
   * Parses the bundle files of one input now, on the caller's thread, so that a later render of the same bytes
   * finds them parsed (the parse memo is keyed by the byte arrays). The composer calls it right after a fetch,
   * on the source call's thread, so inputs are parsed in parallel instead of one after another in the render.
   * Reports nothing: a problem found here is found again, and reported, by the render.
   */
  public void parseAhead(ResolvedInput input) {
    BundleDirectoryReader.read(input, new Problems());
  }

  private static Optional<Fragment> overlay(VersionProfile profile, Source source, Problems problems) {
    if (profile.jcascOverlay().isBlank()) {
      return Optional.empty();
    }
    try {
      return YamlReader.read(profile.jcascOverlay().getBytes(StandardCharsets.UTF_8))
          .map(root -> new Fragment(source, OVERLAY_FILE, root));
    } catch (YamlReadException e) {
      problems.unreadable(source, OVERLAY_FILE, e);
      return Optional.empty();
    }
  }

  private static List<BundleLock.Input> lockInputs(List<ResolvedInput> inputs) {
    return inputs.stream().map(input -> {
      InputRef ref = input.ref();
      return new BundleLock.Input(ref.index(), ref.kind(), ref.url(), ref.name(), ref.ref(), ref.path(),
          input.revision());
    }).toList();
  }
}
