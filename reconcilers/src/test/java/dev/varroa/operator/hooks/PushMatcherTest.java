package dev.varroa.operator.hooks;

import static dev.varroa.operator.hooks.FollowedObjects.catalogSource;
import static dev.varroa.operator.hooks.FollowedObjects.gitBundle;
import static dev.varroa.operator.hooks.FollowedObjects.ociBundle;
import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.CatalogSource;
import dev.varroa.api.v1alpha1.ComposedBundle;
import java.util.List;
import org.junit.jupiter.api.Test;

class PushMatcherTest {
  private static final List<String> GITHUB_URLS = List.of("https://github.com/acme/bundles.git",
      "git@github.com:acme/bundles.git", "https://github.com/acme/bundles");

  private static GitPush githubPush(String... refs) {
    return new GitPush(GitProvider.GITHUB, GITHUB_URLS, List.of(refs));
  }

  private static Rechecks match(PushNotice notice, List<ComposedBundle> bundles) {
    return PushMatcher.match(notice, bundles, List.of());
  }

  private static dev.varroa.api.v1alpha1.Team team(String namespace, String name, String pipelinesYaml) {
    return io.fabric8.kubernetes.client.utils.Serialization.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Team
        metadata: {name: %s, namespace: %s}
        spec:
          pool: shared
          pipelines:
        %s
        """.formatted(name, namespace, pipelinesYaml.indent(4)), dev.varroa.api.v1alpha1.Team.class);
  }

  @Test
  void aBranchPushRunsThePipelinesThatFollowItOnPushOnly() {
    List<dev.varroa.api.v1alpha1.Team> teams = List.of(
        team("tenant-b", "web", """
            - {name: build, repository: "git@github.com:acme/bundles.git", triggers: {push: true}}
            - {name: nightly, repository: "https://github.com/acme/bundles", triggers: {cron: "H 2 * * *"}}
            """),
        team("tenant-a", "api", """
            - {name: release, repository: "https://github.com/acme/bundles.git", branch: release, triggers: {push: true}}
            - {name: main, repository: "https://github.com/acme/bundles.git", branch: main, triggers: {push: true}}
            - {name: other, repository: "https://github.com/acme/other.git", triggers: {push: true}}
            """));

    assertThat(PushMatcher.pipelines(githubPush("refs/heads/main"), teams))
        .extracting(PushMatcher.PushedPipeline::describe).containsExactly("tenant-a/api/main", "tenant-b/web/build");
    assertThat(PushMatcher.pipelines(githubPush("refs/heads/release"), teams))
        .extracting(PushMatcher.PushedPipeline::describe).containsExactly("tenant-a/api/release");
    assertThat(PushMatcher.pipelines(githubPush("refs/tags/main"), teams)).isEmpty();
  }

  @Test
  void aBranchPushRechecksEveryBundleFollowingThatBranchWhateverTheUrlForm() {
    List<ComposedBundle> bundles = List.of(
        gitBundle("https-dot-git", "https://github.com/acme/bundles.git", "branch: main"),
        gitBundle("https-bare-slash", "https://GitHub.com/acme/bundles/", "branch: main"),
        gitBundle("ssh-url", "ssh://git@github.com/acme/bundles", "branch: main"),
        gitBundle("ssh-port", "ssh://git@github.com:22/acme/bundles.git", "branch: main"),
        gitBundle("other-branch", "https://github.com/acme/bundles.git", "branch: release"),
        gitBundle("other-repository", "https://github.com/acme/bundles-legacy.git", "branch: main"),
        gitBundle("other-host", "https://git.example.com/acme/bundles.git", "branch: main"));

    assertThat(match(githubPush("refs/heads/main"), bundles).bundleNames())
        .containsExactly("ci/https-bare-slash", "ci/https-dot-git", "ci/ssh-port", "ci/ssh-url");
  }

  @Test
  void aBranchNoInputFollowsRechecksNothing() {
    List<ComposedBundle> bundles = List.of(gitBundle("main", "https://github.com/acme/bundles.git", "branch: main"));

    assertThat(match(githubPush("refs/heads/feature/x"), bundles).isEmpty()).isTrue();
  }

  @Test
  void aTagPushRechecksThatTagAndEverySemverRangeButNeitherCommitsNorBranches() {
    List<ComposedBundle> bundles = List.of(
        gitBundle("same-tag", "git@github.com:acme/bundles.git", "tag: v1.3.0"),
        gitBundle("other-tag", "git@github.com:acme/bundles.git", "tag: v1.2.0"),
        gitBundle("semver", "https://github.com/acme/bundles", "semver: \">=1.0.0 <2.0.0\""),
        gitBundle("commit", "https://github.com/acme/bundles", "commit: " + ProviderDeliveries.AFTER),
        gitBundle("branch", "https://github.com/acme/bundles", "branch: main"));

    assertThat(match(githubPush("refs/tags/v1.3.0"), bundles).bundleNames()).containsExactly("ci/same-tag", "ci/semver");
  }

  @Test
  void aCommitPinnedInputIsNeverRechecked() {
    List<ComposedBundle> bundles = List.of(
        gitBundle("commit", "https://github.com/acme/bundles", "commit: " + ProviderDeliveries.AFTER));

    assertThat(match(githubPush("refs/heads/main", "refs/tags/v9.0.0"), bundles).isEmpty()).isTrue();
  }

  @Test
  void aBitbucketServerPushMatchesItsSshAndScmHttpUrls() {
    GitPush push = new GitPush(GitProvider.BITBUCKET_SERVER, List.of(
        "ssh://git@bitbucket.example.com:7999/ci/bundles.git", "https://bitbucket.example.com/scm/ci/bundles.git"),
        List.of("refs/heads/main"));
    List<ComposedBundle> bundles = List.of(
        gitBundle("ssh", "ssh://git@bitbucket.example.com:7999/ci/bundles.git", "branch: main"),
        gitBundle("http", "https://bitbucket.example.com/scm/ci/bundles", "branch: main"));

    assertThat(match(push, bundles).bundleNames()).containsExactly("ci/http", "ci/ssh");
  }

  @Test
  void catalogSourcesFollowingTheRepositoryAreRecheckedToo() {
    List<CatalogSource> sources = List.of(
        catalogSource("platform", "git: {url: \"ssh://git@github.com/acme/bundles.git\", ref: {branch: main}}"),
        catalogSource("tagged", "git: {url: \"https://github.com/acme/bundles\", ref: {tag: v1.0.0}}"),
        catalogSource("elsewhere", "git: {url: \"https://github.com/acme/catalog\", ref: {branch: main}}"));

    Rechecks rechecks = PushMatcher.match(githubPush("refs/heads/main"), List.of(), sources);

    assertThat(rechecks.catalogSourceNames()).containsExactly("ci/platform");
    assertThat(rechecks.bundleNames()).isEmpty();
  }

  @Test
  void suspendedObjectsAreLeftAlone() {
    ComposedBundle suspended = gitBundle("suspended", "https://github.com/acme/bundles.git", "branch: main");
    suspended.getSpec().suspend = true;

    assertThat(match(githubPush("refs/heads/main"), List.of(suspended)).isEmpty()).isTrue();
  }

  @Test
  void aRegistryTagPushRechecksThatTagAndSemverInputsButNoDigestOrOtherTag() {
    RegistryPush push = new RegistryPush(List.of(new RegistryPush.PushedTag("registry.example.com:5000",
        "ci/bundles/team-a", "1.5.0", "sha256:" + "a".repeat(64))));
    List<ComposedBundle> bundles = List.of(
        ociBundle("same-tag", "oci://registry.example.com:5000/ci/bundles/team-a", "tag: \"1.5.0\""),
        ociBundle("other-tag", "oci://registry.example.com:5000/ci/bundles/team-a", "tag: \"1.4.0\""),
        ociBundle("semver", "oci://Registry.Example.com:5000/ci/bundles/team-a", "semver: \">=1.0.0\""),
        ociBundle("digest", "oci://registry.example.com:5000/ci/bundles/team-a", "digest: \"sha256:" + "b".repeat(64) + "\""),
        ociBundle("other-repository", "oci://registry.example.com:5000/ci/bundles/team-b", "semver: \">=1.0.0\""),
        ociBundle("other-port", "oci://registry.example.com/ci/bundles/team-a", "semver: \">=1.0.0\""));
    List<CatalogSource> sources = List.of(
        catalogSource("oci-catalog", "oci: {url: \"oci://registry.example.com:5000/ci/bundles/team-a\", ref: {semver: \"1.x\"}}"));

    Rechecks rechecks = PushMatcher.match(push, bundles, sources);

    assertThat(rechecks.bundleNames()).containsExactly("ci/same-tag", "ci/semver");
    assertThat(rechecks.catalogSourceNames()).containsExactly("ci/oci-catalog");
  }

  @Test
  void readsOnlyManifestPushesUnderATagFromTheRegistryEnvelope() throws Exception {
    String body = ProviderDeliveries.registryPushBody("127.0.0.1:5000", "ci/bundles/team-a", "2.0.0",
        "sha256:" + "c".repeat(64));

    RegistryPush push = RegistryDeliveryReader.parse(PayloadJson.read(null, body.getBytes()));

    assertThat(push.tags()).containsExactly(new RegistryPush.PushedTag("127.0.0.1:5000", "ci/bundles/team-a", "2.0.0",
        "sha256:" + "c".repeat(64)));
  }
}
