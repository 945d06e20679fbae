package dev.varroa.bundle.render;

import static dev.varroa.bundle.render.TestBundles.failure;
import static dev.varroa.bundle.render.TestBundles.git;
import static dev.varroa.bundle.render.TestBundles.gitRef;
import static dev.varroa.bundle.render.TestBundles.profile;
import static dev.varroa.bundle.render.TestBundles.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleProblem;
import dev.varroa.bundle.RenderRequest;
import java.util.List;
import java.util.Set;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/** BUNDLES.md §6: every problem located and with its fix, all of them at once, conflicts ranked first. */
class ErrorReportingTest {

  @Test
  void allProblemsOfARenderAreReportedInOneException() {
    BundleException failure = failure(request(profile("", "git:5.7.0"),
        git(0, "jcasc/a.yaml", "a: [1\n", "jcasc/b.yaml", "b: ${UNDEFINED}\n", "plugins.yaml", "plugins: [{id: job-dsl}]\n"),
        git(1),
        git(2, "jcasc/c.yaml", "b: {x: 1}\n", "plugins.yaml", "plugins: [{id: git, version: \"5.6.0\"}]\n")));

    assertThat(failure.problems()).extracting(BundleProblem::kind, BundleProblem::input, BundleProblem::file).containsExactly(
        Tuple.tuple(BundleProblem.Kind.INVALID, gitRef(0).describe(), "jcasc/a.yaml"),
        Tuple.tuple(BundleProblem.Kind.INVALID, gitRef(1).describe(), null),
        Tuple.tuple(BundleProblem.Kind.CONFLICT, gitRef(2).describe(), "jcasc/c.yaml"),
        Tuple.tuple(BundleProblem.Kind.INVALID, gitRef(0).describe(), "jcasc/b.yaml"),
        Tuple.tuple(BundleProblem.Kind.CONFLICT, gitRef(2).describe(), "plugins.yaml"),
        Tuple.tuple(BundleProblem.Kind.INVALID, gitRef(0).describe(), "plugins.yaml"));
    assertThat(failure.getMessage().lines()).hasSize(6);
  }

  @Test
  void conflictOutranksInvalidForTheExitCode() {
    BundleException failure = failure(
        git(0, "jcasc/a.yaml", "a: [1\n"),
        git(1, "jcasc/a.yaml", "b: 1\n", "jcasc/b.yaml", "b: 2\n"));

    assertThat(failure.problems()).extracting(BundleProblem::kind)
        .containsExactlyInAnyOrder(BundleProblem.Kind.INVALID, BundleProblem.Kind.CONFLICT);
    assertThat(failure.kind()).isEqualTo(BundleProblem.Kind.CONFLICT);
    assertThat(failure.exitCode()).isEqualTo(3);
  }

  @Test
  void invalidInputAloneExitsTwo() {
    assertThat(failure(git(0)).exitCode()).isEqualTo(2);
  }

  @Test
  void everyProblemNamesTheInputTheFileThePathWhatIsWrongAndTheFix() {
    BundleException failure = failure(request(profile("", "git:5.7.0"),
        git(0, "jcasc/a.yaml", "jenkins:\n  systemMessage: one\n  url: ${NOPE}\n", "jcasc/b.yaml", "jenkins:\n  systemMessage: two\n",
            "plugins.yaml", "plugins: [{id: git, version: \"5.6.0\"}, {id: job-dsl}]\n")));

    assertThat(failure.problems()).hasSize(4).allSatisfy(problem -> {
      assertThat(problem.input()).isEqualTo(gitRef(0).describe());
      assertThat(problem.file()).isNotBlank();
      assertThat(problem.yamlPath()).isNotBlank();
      assertThat(problem.message()).isNotBlank();
      assertThat(problem.fix()).isNotBlank();
      assertThat(problem.format()).startsWith(problem.kind() == BundleProblem.Kind.CONFLICT ? "conflict: " : "invalid input: ")
          .contains(problem.input(), problem.file(), problem.yamlPath(), "; fix: ");
    });
  }

  @Test
  void missingProfileIsInvalidInput() {
    BundleException failure = failure(new RenderRequest("team-a", List.of(git(0, "jcasc/a.yaml", "a: 1\n")), null,
        Set.of(), Set.of()));

    assertThat(failure.exitCode()).isEqualTo(2);
    assertThat(failure.problems().get(0).fix()).contains("versionProfileRef");
  }

  @Test
  void profilePluginWithoutVersionIsInvalidNamingTheProfile() {
    BundleException failure = failure(request(profile("", "git:")));

    assertThat(failure.problems()).singleElement().satisfies(problem -> {
      assertThat(problem.input()).isEqualTo("profile lts");
      assertThat(problem.yamlPath()).isEqualTo("spec.plugins[git]");
    });
  }
}
