package dev.varroa.bundle.render;

import static dev.varroa.bundle.render.TestBundles.failure;
import static dev.varroa.bundle.render.TestBundles.git;
import static dev.varroa.bundle.render.TestBundles.gitRef;
import static dev.varroa.bundle.render.TestBundles.onlyProblem;
import static dev.varroa.bundle.render.TestBundles.profile;
import static dev.varroa.bundle.render.TestBundles.render;
import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleProblem;
import dev.varroa.bundle.RenderRequest;
import dev.varroa.bundle.ResolvedInput;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** BUNDLES.md §3, end: every ${NAME} must be defined; the reference itself stays in the output. */
class VariableCheckTest {
  private static RenderRequest request(Set<String> secrets, Set<String> environment, ResolvedInput... inputs) {
    return new RenderRequest("team-a", List.of(inputs), profile(), secrets, environment);
  }

  private static RenderedBundle renderWith(Set<String> secrets, Set<String> environment, ResolvedInput... inputs)
      throws BundleException {
    return render(request(secrets, environment, inputs));
  }

  @Test
  void variableDefinedByAVariablesFileOfAnyInputStaysUntouched() throws Exception {
    RenderedBundle bundle = renderWith(Set.of(), Set.of(),
        git(0, "jcasc/a.yaml", "jenkins:\n  systemMessage: \"Welcome to ${ORG_NAME}\"\n"),
        git(1, "variables.yaml", "variables:\n  ORG_NAME: acme\n"));

    assertThat(bundle.jcascText()).isEqualTo("jenkins:\n  systemMessage: Welcome to ${ORG_NAME}\n");
    assertThat(bundle.variables()).containsEntry("ORG_NAME", "acme");
  }

  @Test
  void variableDefinedByADeclaredSecret() throws Exception {
    RenderedBundle bundle = renderWith(Set.of("GITHUB_TOKEN"), Set.of(),
        git(0, "jcasc/a.yaml", "credentials:\n  token: ${GITHUB_TOKEN}\n"));

    assertThat(bundle.jcascText()).contains("token: ${GITHUB_TOKEN}");
  }

  @Test
  void variableDefinedByTheJenkinsEnvironment() throws Exception {
    RenderedBundle bundle = renderWith(Set.of(), Set.of("JENKINS_URL"),
        git(0, "jcasc/a.yaml", "unclassified:\n  location:\n    url: ${JENKINS_URL}\n"));

    assertThat(bundle.jcascText()).contains("url: ${JENKINS_URL}");
  }

  @Test
  void undefinedVariableIsInvalidNamingTheVariableTheFileAndTheInput() {
    BundleException failure = failure(request(Set.of(), Set.of(),
        git(0, "jcasc/a.yaml", "jenkins:\n  mode: NORMAL\n"),
        git(1, "jcasc/10-cloud.yaml", "jenkins:\n  clouds:\n    - kubernetes:\n        name: k8s\n        namespace: ${AGENTS_NS}\n")));
    BundleProblem problem = onlyProblem(failure);

    assertThat(failure.exitCode()).isEqualTo(2);
    assertThat(problem.kind()).isEqualTo(BundleProblem.Kind.INVALID);
    assertThat(problem.input()).isEqualTo(gitRef(1).describe());
    assertThat(problem.file()).isEqualTo("jcasc/10-cloud.yaml");
    assertThat(problem.yamlPath()).isEqualTo("jenkins.clouds[kubernetes/k8s].namespace");
    assertThat(problem.message()).contains("${AGENTS_NS}", "line 5");
    assertThat(problem.fix()).contains("variables.yaml", "secret");
  }

  @Test
  void escapedReferenceIsNotChecked() throws Exception {
    RenderedBundle bundle = renderWith(Set.of(), Set.of(),
        git(0, "jcasc/a.yaml", "jenkins:\n  systemMessage: \"literal ^${NOT_A_VARIABLE}\"\n"));

    assertThat(bundle.jcascText()).contains("literal ^${NOT_A_VARIABLE}");
  }

  @Test
  void referenceWithADefaultIsNotChecked() throws Exception {
    RenderedBundle bundle = renderWith(Set.of(), Set.of(),
        git(0, "jcasc/a.yaml", "jenkins:\n  numExecutors: ${EXECUTORS:-0}\n"));

    assertThat(bundle.jcascText()).contains("numExecutors: ${EXECUTORS:-0}");
  }

  @Test
  void everyUndefinedReferenceInAValueIsReported() {
    BundleException failure = failure(request(Set.of("B"), Set.of(),
        git(0, "jcasc/a.yaml", "a:\n  x: \"${A}-${B}-${C}-${A}\"\n")));

    assertThat(failure.problems()).extracting(BundleProblem::message)
        .satisfiesExactly(m -> assertThat(m).contains("${A}"), m -> assertThat(m).contains("${C}"));
  }

  @Test
  void valueOverriddenByALaterInputIsNotChecked() throws Exception {
    RenderedBundle bundle = renderWith(Set.of(), Set.of(),
        git(0, "jcasc/a.yaml", "jenkins:\n  systemMessage: ${GONE}\n"),
        git(1, "jcasc/a.yaml", "jenkins:\n  systemMessage: fixed\n"));

    assertThat(bundle.jcascText()).isEqualTo("jenkins:\n  systemMessage: fixed\n");
  }

  @Test
  void lockListsVariableNamesAndSecretNamesSortedNeverValues() throws Exception {
    RenderedBundle bundle = renderWith(Set.of("Z_SECRET", "A_SECRET"), Set.of(),
        git(0, "variables.yaml", "variables:\n  ORG: acme\n  BRAND: \"s3cr3t-looking value\"\n"));

    assertThat(bundle.lock().variables()).containsExactly("BRAND", "ORG");
    assertThat(bundle.lock().secrets()).containsExactly("A_SECRET", "Z_SECRET");
    assertThat(bundle.lockText()).doesNotContain("acme", "s3cr3t");
  }

  @Test
  void laterInputVariableValueWins() throws Exception {
    RenderedBundle bundle = renderWith(Set.of(), Set.of(),
        git(0, "variables.yaml", "variables:\n  ORG: acme\n"),
        git(1, "variables.yaml", "variables:\n  ORG: globex\n"));

    assertThat(bundle.variables()).containsExactly(java.util.Map.entry("ORG", "globex"));
  }

  @Test
  void variableWithoutAValueIsInvalid() {
    BundleProblem problem = onlyProblem(failure(request(Set.of(), Set.of(),
        git(0, "variables.yaml", "variables:\n  ORG:\n"))));

    assertThat(problem.yamlPath()).isEqualTo("variables.ORG");
    assertThat(problem.fix()).contains("\"\"");
  }
}
