package dev.varroa.bundle.render;

import static dev.varroa.bundle.render.TestBundles.failure;
import static dev.varroa.bundle.render.TestBundles.git;
import static dev.varroa.bundle.render.TestBundles.gitRef;
import static dev.varroa.bundle.render.TestBundles.onlyProblem;
import static dev.varroa.bundle.render.TestBundles.profile;
import static dev.varroa.bundle.render.TestBundles.render;
import static dev.varroa.bundle.render.TestBundles.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleProblem;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.VersionProfile;
import org.junit.jupiter.api.Test;

/** BUNDLES.md §4: the plugin set. */
class PluginResolutionTest {
  private static final VersionProfile LTS = profile("", "git:5.7.0", "credentials:1415.v831096eb_5534",
      "workflow-aggregator:608.v67378e9d3db_1");

  private static ResolvedInput plugins(int index, String yaml) {
    return git(index, "plugins.yaml", yaml);
  }

  private static RenderedBundle renderWithLts(ResolvedInput... inputs) throws BundleException {
    return render(request(LTS, inputs));
  }

  @Test
  void unpinnedPluginTakesTheProfileVersion() throws Exception {
    RenderedBundle bundle = renderWithLts(plugins(0, "plugins:\n  - id: git\n"));

    assertThat(bundle.lock().plugins()).contains(new PluginLock("git", "5.7.0", PluginSource.PROFILE));
  }

  @Test
  void pinAtTheProfileVersionIsProfilePlusPin() throws Exception {
    RenderedBundle bundle = renderWithLts(plugins(0, "plugins:\n  - id: git\n    version: \"5.7.0\"\n"));

    assertThat(bundle.lock().plugins()).contains(new PluginLock("git", "5.7.0", PluginSource.PROFILE_AND_PIN));
  }

  @Test
  void pinOfAPluginTheProfileDoesNotListIsPin() throws Exception {
    RenderedBundle bundle = renderWithLts(plugins(0, "plugins:\n  - id: job-dsl\n    version: 1.92\n"));

    assertThat(bundle.lock().plugins()).contains(new PluginLock("job-dsl", "1.92", PluginSource.PIN));
    assertThat(bundle.pluginsText()).contains("job-dsl:1.92\n");
  }

  @Test
  void profilePluginsAreAlwaysInTheSet() throws Exception {
    RenderedBundle bundle = renderWithLts(git(0, "jcasc/a.yaml", "jenkins: {}\n"));

    assertThat(bundle.lock().plugins()).extracting(PluginLock::id)
        .containsExactly("credentials", "git", "workflow-aggregator");
    assertThat(bundle.lock().plugins()).allMatch(p -> p.source() == PluginSource.PROFILE);
  }

  @Test
  void setIsTheUnionOverInputsById() throws Exception {
    RenderedBundle bundle = renderWithLts(
        plugins(0, "plugins:\n  - id: job-dsl\n    version: \"1.92\"\n  - id: git\n"),
        plugins(1, "plugins:\n  - id: matrix-auth\n    version: \"3.2\"\n  - id: git\n"));

    assertThat(bundle.pluginsText()).isEqualTo("""
        credentials:1415.v831096eb_5534
        git:5.7.0
        job-dsl:1.92
        matrix-auth:3.2
        workflow-aggregator:608.v67378e9d3db_1
        """);
  }

  @Test
  void laterInputVersionReplacesEarlier() throws Exception {
    RenderedBundle bundle = renderWithLts(
        plugins(0, "plugins:\n  - id: job-dsl\n    version: \"1.90\"\n"),
        plugins(1, "plugins:\n  - id: job-dsl\n    version: \"1.92\"\n"));

    assertThat(bundle.lock().plugins()).contains(new PluginLock("job-dsl", "1.92", PluginSource.PIN));
  }

  @Test
  void laterUnpinnedListingKeepsTheEarlierPin() throws Exception {
    RenderedBundle bundle = renderWithLts(
        plugins(0, "plugins:\n  - id: job-dsl\n    version: \"1.90\"\n"),
        plugins(1, "plugins:\n  - id: job-dsl\n"));

    assertThat(bundle.lock().plugins()).contains(new PluginLock("job-dsl", "1.90", PluginSource.PIN));
  }

  @Test
  void laterPinAtTheProfileVersionResolvesAnEarlierMismatchedPin() throws Exception {
    RenderedBundle bundle = renderWithLts(
        plugins(0, "plugins:\n  - id: git\n    version: \"5.6.0\"\n"),
        plugins(1, "plugins:\n  - id: git\n    version: \"5.7.0\"\n"));

    assertThat(bundle.lock().plugins()).contains(new PluginLock("git", "5.7.0", PluginSource.PROFILE_AND_PIN));
  }

  @Test
  void conflictWhenPinDiffersFromTheProfileVersion() {
    BundleException failure = failure(request(LTS,
        plugins(0, "plugins:\n  - id: git\n"),
        plugins(1, "plugins:\n  - id: git\n    version: \"5.6.0\"\n")));
    BundleProblem problem = onlyProblem(failure);

    assertThat(failure.exitCode()).isEqualTo(3);
    assertThat(problem.kind()).isEqualTo(BundleProblem.Kind.CONFLICT);
    assertThat(problem.input()).isEqualTo(gitRef(1).describe());
    assertThat(problem.file()).isEqualTo("plugins.yaml");
    assertThat(problem.yamlPath()).isEqualTo("plugins[git].version");
    assertThat(problem.message()).contains("git", "5.6.0", "5.7.0", gitRef(1).describe(), "profile lts");
    assertThat(problem.fix()).contains("remove the version", "choose a JenkinsVersionProfile", "5.6.0");
  }

  @Test
  void invalidWhenAPluginIsNeitherPinnedNorInTheProfile() {
    BundleException failure = failure(request(LTS, plugins(0, "plugins:\n  - id: job-dsl\n")));
    BundleProblem problem = onlyProblem(failure);

    assertThat(failure.exitCode()).isEqualTo(2);
    assertThat(problem.kind()).isEqualTo(BundleProblem.Kind.INVALID);
    assertThat(problem.yamlPath()).isEqualTo("plugins[job-dsl]");
    assertThat(problem.message()).contains("job-dsl", "latest");
    assertThat(problem.fix()).contains("pin a version");
  }

  @Test
  void conflictWhenOneInputPinsAPluginTwiceAtDifferentVersions() {
    BundleProblem problem = onlyProblem(failure(request(LTS, plugins(0,
        "plugins:\n  - id: job-dsl\n    version: \"1.90\"\n  - id: job-dsl\n    version: \"1.92\"\n"))));

    assertThat(problem.kind()).isEqualTo(BundleProblem.Kind.CONFLICT);
    assertThat(problem.message()).contains("1.90", "1.92");
  }

  @Test
  void latestIsNotAVersion() {
    BundleProblem problem = onlyProblem(failure(request(LTS,
        plugins(0, "plugins:\n  - id: job-dsl\n    version: latest\n"))));

    assertThat(problem.kind()).isEqualTo(BundleProblem.Kind.INVALID);
    assertThat(problem.yamlPath()).isEqualTo("plugins[job-dsl].version");
  }

  @Test
  void pluginEntryWithAnUnknownKeyIsInvalid() {
    BundleProblem problem = onlyProblem(failure(request(LTS,
        plugins(0, "plugins:\n  - id: git\n    verison: \"5.7.0\"\n"))));

    assertThat(problem.kind()).isEqualTo(BundleProblem.Kind.INVALID);
    assertThat(problem.message()).contains("verison");
  }

  @Test
  void pluginsFileWithoutThePluginsKeyIsInvalid() {
    BundleProblem problem = onlyProblem(failure(request(LTS, plugins(0, "- id: git\n"))));

    assertThat(problem.kind()).isEqualTo(BundleProblem.Kind.INVALID);
    assertThat(problem.file()).isEqualTo("plugins.yaml");
    assertThat(problem.fix()).contains("plugins:");
  }

  @Test
  void versionWrittenAsANumberKeepsItsDigits() throws Exception {
    RenderedBundle bundle = renderWithLts(plugins(0, "plugins:\n  - id: job-dsl\n    version: 1.10\n"));

    assertThat(bundle.pluginsText()).contains("job-dsl:1.10\n");
  }

  @Test
  void pluginsTxtIsSortedByIdWithOneLinePerPlugin() throws Exception {
    RenderedBundle bundle = render(request(profile("", "zeta:1", "alpha:2", "mid:3")));

    assertThat(bundle.pluginsText()).isEqualTo("alpha:2\nmid:3\nzeta:1\n");
  }
}
