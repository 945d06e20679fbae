package dev.varroa.bundle.render;

import static dev.varroa.bundle.render.TestBundles.git;
import static dev.varroa.bundle.render.TestBundles.gitRef;
import static dev.varroa.bundle.render.TestBundles.profile;
import static dev.varroa.bundle.render.TestBundles.render;
import static dev.varroa.bundle.render.TestBundles.request;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** `varroactl bundle explain`: which input and file set a value, and what it overrode. */
class ProvenanceTest {

  @Test
  void explainNamesTheInputFileAndLineThatSetTheValue() throws Exception {
    RenderedBundle bundle = render(git(0, "jcasc/a.yaml", "jenkins:\n  mode: NORMAL\n  systemMessage: hello\n"));

    Explanation explanation = bundle.explain("jenkins.systemMessage").orElseThrow();

    assertThat(explanation.present()).isTrue();
    assertThat(explanation.value()).isEqualTo("hello");
    assertThat(explanation.setBy()).isEqualTo(new Origin(gitRef(0).describe(), "0", "jcasc/a.yaml", 3));
    assertThat(explanation.overrode()).isEmpty();
  }

  @Test
  void explainListsEveryOverriddenValueOldestFirst() throws Exception {
    RenderedBundle bundle = render(
        git(0, "jcasc/a.yaml", "jenkins:\n  systemMessage: zero\n"),
        git(1, "jcasc/b.yaml", "\njenkins:\n  systemMessage: one\n"),
        git(2, "jcasc/c.yaml", "jenkins:\n  systemMessage: two\n"));

    Explanation explanation = bundle.explain("jenkins.systemMessage").orElseThrow();

    assertThat(explanation.value()).isEqualTo("two");
    assertThat(explanation.setBy().index()).isEqualTo("2");
    assertThat(explanation.overrode()).containsExactly(
        new Explanation.Overridden(new Origin(gitRef(0).describe(), "0", "jcasc/a.yaml", 2), "zero"),
        new Explanation.Overridden(new Origin(gitRef(1).describe(), "1", "jcasc/b.yaml", 3), "one"));
    assertThat(explanation.format())
        .contains("set by " + gitRef(2).describe() + " jcasc/c.yaml line 2")
        .contains("overrode one from " + gitRef(1).describe());
  }

  @Test
  void explainFollowsIdentityPaths() throws Exception {
    RenderedBundle bundle = render(
        git(0, "jcasc/a.yaml", "jenkins:\n  clouds:\n    - kubernetes:\n        name: k8s\n        namespace: agents\n"),
        git(1, "jcasc/a.yaml", "jenkins:\n  clouds:\n    - kubernetes:\n        name: k8s\n        namespace: team\n"));

    Explanation explanation = bundle.explain("jenkins.clouds[kubernetes/k8s].namespace").orElseThrow();

    assertThat(explanation.value()).isEqualTo("team");
    assertThat(explanation.setBy().index()).isEqualTo("1");
    assertThat(explanation.overrode()).extracting(Explanation.Overridden::value).containsExactly("agents");
    assertThat(bundle.explain("jenkins.clouds[kubernetes/k8s].name").orElseThrow().setBy().index()).isEqualTo("0");
  }

  @Test
  void explainUsesIndexForElementsWithoutIdentity() throws Exception {
    RenderedBundle bundle = render(git(0, "jcasc/a.yaml", "jenkins:\n  labels: [a, b]\n"), git(1, "jcasc/a.yaml", "jenkins:\n  labels: [c]\n"));

    assertThat(bundle.explain("jenkins.labels[2]").orElseThrow().setBy().index()).isEqualTo("1");
    assertThat(bundle.explain("jenkins.labels[0]").orElseThrow().value()).isEqualTo("a");
  }

  @Test
  void explainSaysWhoRemovedAValue() throws Exception {
    RenderedBundle bundle = render(
        git(0, "jcasc/a.yaml", "jenkins:\n  systemMessage: hi\n"),
        git(1, "jcasc/a.yaml", "jenkins:\n  systemMessage: !remove\n"));

    Explanation explanation = bundle.explain("jenkins.systemMessage").orElseThrow();

    assertThat(explanation.present()).isFalse();
    assertThat(explanation.value()).isNull();
    assertThat(explanation.setBy().index()).isEqualTo("1");
    assertThat(explanation.overrode()).extracting(Explanation.Overridden::value).containsExactly("hi");
    assertThat(explanation.format()).contains("is removed", "removed by " + gitRef(1).describe());
  }

  @Test
  void explainOfAReplacedCollectionShowsWhatItReplaced() throws Exception {
    RenderedBundle bundle = render(
        git(0, "jcasc/a.yaml", "jenkins:\n  securityRealm:\n    local: {allowsSignup: false}\n"),
        git(1, "jcasc/a.yaml", "jenkins:\n  securityRealm: !replace\n    ldap: {server: ldap}\n"));

    Explanation explanation = bundle.explain("jenkins.securityRealm").orElseThrow();

    assertThat(explanation.value()).isEqualTo("ldap:\n  server: ldap");
    assertThat(explanation.overrode()).extracting(Explanation.Overridden::value)
        .containsExactly("local:\n  allowsSignup: false");
  }

  @Test
  void explainNamesTheProfileForOverlayValues() throws Exception {
    RenderedBundle bundle = render(request(profile("jenkins:\n  numExecutors: 0\n"),
        git(0, "jcasc/a.yaml", "jenkins:\n  numExecutors: 2\n")));

    Explanation explanation = bundle.explain("jenkins.numExecutors").orElseThrow();

    assertThat(explanation.setBy()).isEqualTo(new Origin("profile lts", "profile", BundleRenderer.OVERLAY_FILE, 2));
    assertThat(explanation.overrode()).extracting(o -> o.origin().index()).containsExactly("0");
  }

  @Test
  void pathNeverSetHasNoExplanation() throws Exception {
    RenderedBundle bundle = render(git(0, "jcasc/a.yaml", "jenkins:\n  mode: NORMAL\n"));

    assertThat(bundle.explain("jenkins.systemMessage")).isEmpty();
    assertThat(bundle.provenance().paths()).containsExactly("jenkins", "jenkins.mode");
  }

  @Test
  void everyOverrideInTheLockCanBeExplained() throws Exception {
    RenderedBundle bundle = render(GoldenBundle.request());

    assertThat(bundle.lock().overrides()).isNotEmpty().allSatisfy(override ->
        assertThat(bundle.explain(override.path())).hasValueSatisfying(explanation -> {
          assertThat(explanation.setBy().index()).isEqualTo(override.winner());
          assertThat(explanation.overrode()).extracting(o -> o.origin().index()).contains(override.overridden());
        }));
  }
}
