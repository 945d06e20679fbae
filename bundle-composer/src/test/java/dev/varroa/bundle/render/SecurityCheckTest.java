package dev.varroa.bundle.render;

import static dev.varroa.bundle.render.TestBundles.failure;
import static dev.varroa.bundle.render.TestBundles.git;
import static dev.varroa.bundle.render.TestBundles.onlyProblem;
import static dev.varroa.bundle.render.TestBundles.profile;
import static dev.varroa.bundle.render.TestBundles.render;
import static dev.varroa.bundle.render.TestBundles.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.bundle.BundleProblem;
import org.junit.jupiter.api.Test;

/** No bundle may leave Jenkins open: what SecurityCheck refuses, and what it lets through. */
class SecurityCheckTest {

  @Test
  void refusesUnsecuredStrategyNamingTheInputFileAndField() {
    BundleProblem problem = onlyProblem(failure(
        git(0, "jcasc/a.yaml", "jenkins:\n  systemMessage: hi\n"),
        git(1, "jcasc/security.yaml", "jenkins:\n  authorizationStrategy: unsecured\n")));

    assertThat(problem.kind()).isEqualTo(BundleProblem.Kind.CONFLICT);
    assertThat(problem.input()).contains("spec.inputs[1]");
    assertThat(problem.file()).isEqualTo("jcasc/security.yaml");
    assertThat(problem.yamlPath()).isEqualTo("jenkins.authorizationStrategy");
    assertThat(problem.format()).contains("unsecured").contains("fix: remove jenkins.authorizationStrategy");
  }

  @Test
  void refusesUnsecuredWrittenAsAnEmptyMapping() {
    BundleProblem problem = onlyProblem(failure(
        git(0, "jcasc/a.yaml", "jenkins:\n  authorizationStrategy:\n    unsecured: {}\n")));

    assertThat(problem.yamlPath()).isEqualTo("jenkins.authorizationStrategy");
  }

  @Test
  void refusesTheRealmThatAuthenticatesNobody() {
    BundleProblem problem = onlyProblem(failure(git(0, "jcasc/a.yaml", "jenkins:\n  securityRealm: none\n")));

    assertThat(problem.yamlPath()).isEqualTo("jenkins.securityRealm");
    assertThat(problem.fix()).contains("remove jenkins.securityRealm");
  }

  @Test
  void refusesSignupWhenEveryLoggedInUserMayDoAnything() {
    BundleProblem problem = onlyProblem(failure(git(0, "jcasc/a.yaml", """
        jenkins:
          securityRealm:
            local:
              allowsSignup: true
          authorizationStrategy:
            loggedInUsersCanDoAnything:
              allowAnonymousRead: false
        """)));

    assertThat(problem.yamlPath()).isEqualTo("jenkins.securityRealm.local.allowsSignup");
  }

  @Test
  void refusesAMatrixGrantingAdministerToAnonymous() {
    BundleProblem problem = onlyProblem(failure(git(0, "jcasc/a.yaml", """
        jenkins:
          authorizationStrategy:
            globalMatrix:
              entries:
                - user:
                    name: anonymous
                    permissions: [Overall/Administer]
        """)));

    assertThat(problem.yamlPath()).isEqualTo("jenkins.authorizationStrategy.globalMatrix.entries[user/anonymous]");
    assertThat(problem.fix()).contains("named group or user");
  }

  @Test
  void refusesAnOldStyleMatrixLineGrantingAdministerToAnonymous() {
    BundleProblem problem = onlyProblem(failure(git(0, "jcasc/a.yaml", """
        jenkins:
          authorizationStrategy:
            projectMatrix:
              permissions:
                - "USER:Overall/Administer:anonymous"
        """)));

    assertThat(problem.message()).contains("USER:Overall/Administer:anonymous");
  }

  @Test
  void namesTheProfileOverlayWhenItOpensJenkins() {
    BundleProblem problem = onlyProblem(failure(request(profile("jenkins:\n  authorizationStrategy: unsecured\n"),
        git(0, "jcasc/a.yaml", "jenkins:\n  numExecutors: 0\n"))));

    assertThat(problem.input()).isEqualTo("profile lts");
  }

  @Test
  void acceptsARealRealmAndAMatrixThatGrantsNamedGroups() throws Exception {
    RenderedBundle bundle = render(git(0, "jcasc/a.yaml", """
        jenkins:
          securityRealm:
            local:
              allowsSignup: false
          authorizationStrategy:
            globalMatrix:
              entries:
                - group:
                    name: authenticated
                    permissions: [Overall/Read]
                - group:
                    name: admins
                    permissions: [Overall/Administer]
        """));

    assertThat(bundle.explain("jenkins.securityRealm")).isPresent();
  }

  @Test
  void acceptsSignupWhenTheStrategyGrantsExplicitly() throws Exception {
    render(git(0, "jcasc/a.yaml", """
        jenkins:
          securityRealm:
            local:
              allowsSignup: true
        """));
  }
}
