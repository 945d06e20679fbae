package dev.varroa.bundle.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.api.v1alpha1.GitSource;
import dev.varroa.bundle.BundleException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GitRefSelectorTest {
  private static final String URL = "https://git.example.com/ci/bundles.git";
  private static final String MAIN = "1".repeat(40);
  private static final String V1 = "2".repeat(40);
  private static final String V2 = "3".repeat(40);
  private static final Map<String, String> ADVERTISED = Map.of(
      "refs/heads/main", MAIN,
      "refs/tags/v1.0.0", V1,
      "refs/tags/v1.5.0", V2,
      "refs/tags/nightly", MAIN);

  @Test
  void selectsTheBranchTipAsBranchAtSha1() throws Exception {
    GitRevision revision = select("branch", "main", ADVERTISED);

    assertThat(revision.revision()).isEqualTo("main@sha1:" + MAIN);
  }

  @Test
  void selectsATagByItsPeeledCommit() throws Exception {
    assertThat(select("tag", "v1.0.0", ADVERTISED).revision()).isEqualTo("v1.0.0@sha1:" + V1);
  }

  @Test
  void selectsTheHighestTagInASemverRange() throws Exception {
    assertThat(select("semver", ">=1.0.0 <2.0.0", ADVERTISED).revision()).isEqualTo("v1.5.0@sha1:" + V2);
  }

  @Test
  void takesACommitAsIsWithoutRefs() throws Exception {
    GitRefSelector selector = GitRefSelector.of(Inputs.ref(git("commit", V1)), git("commit", V1).ref);

    assertThat(selector.isFixed()).isTrue();
    assertThat(selector.select(Inputs.ref(git("commit", V1)), URL, Map.of()).revision()).isEqualTo("sha1:" + V1);
  }

  @Test
  void reportsAMissingBranchNamingItAndTheRepository() {
    assertThatThrownBy(() -> select("branch", "mian", ADVERTISED))
        .isInstanceOf(BundleException.class)
        .hasMessageContaining("branch 'mian' does not exist in " + URL)
        .hasMessageContaining("spec.inputs[0] (git " + URL + ", branch mian)");
  }

  @Test
  void reportsASemverRangeWithoutMatchListingTheVersions() {
    assertThatThrownBy(() -> select("semver", ">=3.0.0", ADVERTISED))
        .hasMessageContaining("no tag in " + URL + " matches semver '>=3.0.0' (version tags: v1.0.0, v1.5.0)");
  }

  @Test
  void refusesAnInvalidRangeOrAShortCommit() {
    assertThatThrownBy(() -> select("semver", "not a range!", ADVERTISED)).hasMessageContaining("is not a semver range");
    assertThatThrownBy(() -> select("commit", "abc123", ADVERTISED)).hasMessageContaining("is not a full commit id");
  }

  @Test
  void refusesARefWithTwoChoices() {
    GitSource git = git("branch", "main");
    git.ref.tag = "v1.0.0";

    assertThatThrownBy(() -> GitRefSelector.of(Inputs.ref(git), git.ref)).hasMessageContaining("ref sets 2 of");
  }

  private static GitRevision select(String kind, String value, Map<String, String> advertised) throws BundleException {
    GitSource git = git(kind, value);
    return GitRefSelector.of(Inputs.ref(git), git.ref).select(Inputs.ref(git), URL, advertised);
  }

  private static GitSource git(String kind, String value) {
    return Inputs.git(URL, kind, value, null);
  }
}
