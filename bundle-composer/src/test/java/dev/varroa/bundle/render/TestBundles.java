package dev.varroa.bundle.render;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleFiles;
import dev.varroa.bundle.BundleProblem;
import dev.varroa.bundle.InputRef;
import dev.varroa.bundle.JenkinsEnvironment;
import dev.varroa.bundle.RenderRequest;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.VersionProfile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Small bundles built in the test: inputs from file maps, a profile, a request. */
final class TestBundles {
  static final String REVISION = "main@sha1:0123456789abcdef0123456789abcdef01234567";

  private TestBundles() {}

  /** A git input at position {@code index} whose directory holds the given files (path, text, path, text, …). */
  static ResolvedInput git(int index, String... pathsAndTexts) {
    return new ResolvedInput(gitRef(index), REVISION, files(pathsAndTexts));
  }

  static InputRef gitRef(int index) {
    return new InputRef(index, "git", "https://git.example.com/ci/bundles.git", null, Map.of("branch", "main"),
        "teams/t" + index);
  }

  static BundleFiles files(String... pathsAndTexts) {
    Map<String, String> files = new LinkedHashMap<>();
    for (int i = 0; i < pathsAndTexts.length; i += 2) {
      files.put(pathsAndTexts[i], pathsAndTexts[i + 1]);
    }
    return BundleFiles.ofText(files);
  }

  /** A profile "lts" at Jenkins 2.504.1 listing plugins as "id:version" strings. */
  static VersionProfile profile(String overlay, String... plugins) {
    List<VersionProfile.PluginVersion> list = new ArrayList<>();
    for (String plugin : plugins) {
      String[] idVersion = plugin.split(":", 2);
      list.add(new VersionProfile.PluginVersion(idVersion[0], idVersion[1]));
    }
    return new VersionProfile("lts", "2.504.1", "jenkins/jenkins:2.504.1-jdk17", list, overlay);
  }

  static VersionProfile profile() {
    return profile("");
  }

  static RenderRequest request(VersionProfile profile, ResolvedInput... inputs) {
    return new RenderRequest("team-a", List.of(inputs), profile, Set.of(), JenkinsEnvironment.VARIABLES);
  }

  static RenderRequest request(ResolvedInput... inputs) {
    return request(profile(), inputs);
  }

  static RenderedBundle render(ResolvedInput... inputs) throws BundleException {
    return new BundleRenderer().render(request(inputs));
  }

  static RenderedBundle render(RenderRequest request) throws BundleException {
    return new BundleRenderer().render(request);
  }

  static String jcasc(ResolvedInput... inputs) throws BundleException {
    return render(inputs).jcascText();
  }

  /** The exception a render that must fail throws. */
  static BundleException failure(RenderRequest request) {
    try {
      RenderedBundle unexpected = render(request);
      throw new AssertionError("expected the render to fail, but it rendered:\n" + unexpected.jcascText());
    } catch (BundleException expected) {
      return expected;
    }
  }

  static BundleException failure(ResolvedInput... inputs) {
    return failure(request(inputs));
  }

  /** The only problem of a failed render. */
  static BundleProblem onlyProblem(BundleException failure) {
    if (failure.problems().size() != 1) {
      throw new AssertionError("expected one problem, got:\n" + failure.getMessage());
    }
    return failure.problems().get(0);
  }
}
