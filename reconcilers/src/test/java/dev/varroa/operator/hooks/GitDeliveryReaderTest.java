package dev.varroa.operator.hooks;

import static dev.varroa.operator.hooks.ProviderDeliveries.bitbucketRefsChangedBody;
import static dev.varroa.operator.hooks.ProviderDeliveries.bitbucketServer;
import static dev.varroa.operator.hooks.ProviderDeliveries.forgejo;
import static dev.varroa.operator.hooks.ProviderDeliveries.gitea;
import static dev.varroa.operator.hooks.ProviderDeliveries.giteaPushBody;
import static dev.varroa.operator.hooks.ProviderDeliveries.github;
import static dev.varroa.operator.hooks.ProviderDeliveries.githubPushBody;
import static dev.varroa.operator.hooks.ProviderDeliveries.gitlab;
import static dev.varroa.operator.hooks.ProviderDeliveries.gitlabPushBody;
import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.operator.hooks.ProviderDeliveries.Delivery;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class GitDeliveryReaderTest {
  private static final String SECRET = "It's a Secret to Everybody";

  private static Verdict read(Delivery delivery) {
    return GitDeliveryReader.read(delivery.headers(), delivery.body(), SECRET.getBytes(StandardCharsets.UTF_8));
  }

  private static GitPush accepted(Delivery delivery) {
    Verdict verdict = read(delivery);
    assertThat(verdict).isInstanceOf(Verdict.Accepted.class);
    return (GitPush) ((Verdict.Accepted) verdict).notice();
  }

  @Test
  void readsASignedGitHubBranchPush() {
    GitPush push = accepted(github("push", githubPushBody("refs/heads/main"), SECRET));

    assertThat(push.provider()).isEqualTo(GitProvider.GITHUB);
    assertThat(push.refs()).containsExactly("refs/heads/main");
    assertThat(push.repositoryUrls()).contains("https://github.com/acme/bundles.git", "git@github.com:acme/bundles.git",
        "https://github.com/acme/bundles");
  }

  @Test
  void readsAGitHubPushSentAsAForm() {
    String form = "payload=" + URLEncoder.encode(githubPushBody("refs/tags/v1.3.0"), StandardCharsets.UTF_8);
    Delivery delivery = github("push", form, SECRET).with("Content-Type", "application/x-www-form-urlencoded");

    assertThat(accepted(delivery).refs()).containsExactly("refs/tags/v1.3.0");
  }

  @Test
  void readsAGitLabBranchPushAndTagPushWithTheirToken() {
    GitPush branch = accepted(gitlab("Push Hook", gitlabPushBody("push", "refs/heads/main"), SECRET));
    GitPush tag = accepted(gitlab("Tag Push Hook", gitlabPushBody("tag_push", "refs/tags/v2.0.0"), SECRET));

    assertThat(branch.provider()).isEqualTo(GitProvider.GITLAB);
    assertThat(branch.refs()).containsExactly("refs/heads/main");
    assertThat(branch.repositoryUrls()).contains("https://gitlab.example.com/ci/bundles.git",
        "git@gitlab.example.com:ci/bundles.git");
    assertThat(tag.refs()).containsExactly("refs/tags/v2.0.0");
  }

  @Test
  void readsAGiteaPushSignedInBareHex() {
    GitPush push = accepted(gitea("push", giteaPushBody("refs/heads/main", "gitea.example.com"), SECRET));

    assertThat(push.provider()).isEqualTo(GitProvider.GITEA);
    assertThat(push.repositoryUrls()).contains("https://gitea.example.com/ci/bundles.git",
        "git@gitea.example.com:ci/bundles.git");
  }

  @Test
  void readsAForgejoPushThoughItAlsoCarriesGiteaAndGitHubHeaders() {
    GitPush push = accepted(forgejo("push", giteaPushBody("refs/heads/main", "codeberg.example.org"), SECRET));

    assertThat(push.provider()).isEqualTo(GitProvider.FORGEJO);
  }

  @Test
  void aBadForgejoSignatureIsNotRescuedByTheGiteaOne() {
    Delivery delivery = forgejo("push", giteaPushBody("refs/heads/main", "codeberg.example.org"), SECRET)
        .with("X-Forgejo-Signature", "0".repeat(64));

    assertThat(read(delivery)).isInstanceOf(Verdict.Refused.class);
  }

  @Test
  void readsEveryRefOfABitbucketServerRefsChanged() {
    GitPush push = accepted(bitbucketServer("repo:refs_changed",
        bitbucketRefsChangedBody("refs/heads/main", "refs/tags/v1.4.0"), SECRET));

    assertThat(push.provider()).isEqualTo(GitProvider.BITBUCKET_SERVER);
    assertThat(push.refs()).containsExactly("refs/heads/main", "refs/tags/v1.4.0");
    assertThat(push.repositoryUrls()).containsExactly("ssh://git@bitbucket.example.com:7999/ci/bundles.git",
        "https://bitbucket.example.com/scm/ci/bundles.git");
  }

  @Test
  void refusesAGitHubPushWithoutOrWithAWrongSignature() {
    Delivery signed = github("push", githubPushBody("refs/heads/main"), SECRET);
    Delivery otherSecret = github("push", githubPushBody("refs/heads/main"), "another secret");
    Delivery tampered = new Delivery(signed.headers(), githubPushBody("refs/heads/release").getBytes(StandardCharsets.UTF_8));

    assertThat(read(signed.without("X-Hub-Signature-256"))).isInstanceOf(Verdict.Refused.class)
        .extracting(v -> ((Verdict.Refused) v).reason()).asString().contains("without X-Hub-Signature-256");
    assertThat(read(otherSecret)).isInstanceOf(Verdict.Refused.class);
    assertThat(read(tampered)).isInstanceOf(Verdict.Refused.class);
    assertThat(read(signed.with("X-Hub-Signature-256", "sha1=" + "0".repeat(40)))).isInstanceOf(Verdict.Refused.class);
  }

  @Test
  void refusesWrongTokensAndSignaturesOfTheOtherProviders() {
    assertThat(read(gitlab("Push Hook", gitlabPushBody("push", "refs/heads/main"), "guess"))).isInstanceOf(Verdict.Refused.class);
    assertThat(read(gitea("push", giteaPushBody("refs/heads/main", "gitea.example.com"), "guess")))
        .isInstanceOf(Verdict.Refused.class);
    assertThat(read(bitbucketServer("repo:refs_changed", bitbucketRefsChangedBody("refs/heads/main"), "guess")))
        .isInstanceOf(Verdict.Refused.class);
  }

  @Test
  void ignoresAnAuthenticPingOrIssueButRefusesAnUnsignedOne() {
    Delivery ping = github("ping", "{\"zen\":\"Keep it logically awesome.\",\"hook_id\":1}", SECRET);

    assertThat(read(ping)).isInstanceOf(Verdict.Ignored.class)
        .extracting(v -> ((Verdict.Ignored) v).reason()).asString().contains("'ping' is not a push");
    assertThat(read(github("issues", "{\"action\":\"opened\"}", SECRET))).isInstanceOf(Verdict.Ignored.class);
    assertThat(read(ping.without("X-Hub-Signature-256"))).isInstanceOf(Verdict.Refused.class);
    assertThat(read(bitbucketServer("diagnostics:ping", "{\"test\":true}", SECRET))).isInstanceOf(Verdict.Ignored.class);
  }

  @Test
  void namesTheMissingFieldOfAMalformedPush() {
    Verdict noRef = read(github("push", "{\"repository\":{\"clone_url\":\"https://github.com/acme/bundles.git\"}}", SECRET));
    Verdict noUrl = read(github("push", "{\"ref\":\"refs/heads/main\",\"repository\":{}}", SECRET));
    Verdict notJson = read(github("push", "{\"ref\": refs/heads/main", SECRET));

    assertThat(((Verdict.Malformed) noRef).reason()).contains("field 'ref' is missing");
    assertThat(((Verdict.Malformed) noUrl).reason()).contains("names no repository URL")
        .contains("repository.clone_url");
    assertThat(((Verdict.Malformed) notJson).reason()).contains("not valid JSON at line 1");
  }

  @Test
  void saysWhichHeadersItLooksForWhenNoProviderIsRecognised() {
    Delivery anonymous = github("push", githubPushBody("refs/heads/main"), SECRET).without("X-GitHub-Event");

    assertThat(((Verdict.Malformed) read(anonymous)).reason()).contains("X-GitHub-Event").contains("X-Gitlab-Event")
        .contains("X-Gitea-Event").contains("X-Forgejo-Event").contains("X-Event-Key");
  }
}
