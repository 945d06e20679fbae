package dev.varroa.bundle.source;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CredentialsTest {

  @Test
  void neverShowsSecretsInToString() {
    assertThat(new GitCredentials.SshKey("-----BEGIN KEY-----", "s3cr3t-phrase", "host key").toString())
        .doesNotContain("BEGIN", "s3cr3t-phrase");
    assertThat(new GitCredentials.Basic("u", "hunter2").toString()).doesNotContain("hunter2");
    assertThat(new GitCredentials.Token("ghp_secret").toString()).doesNotContain("ghp_secret");
    assertThat(new OciCredentials.Basic("u", "hunter2").toString()).doesNotContain("hunter2");
    assertThat(new OciCredentials.Token("registry-secret").toString()).doesNotContain("registry-secret");
  }

  @Test
  void sendsATokenWithTheUsernameGitHubExpectsUnlessGivenOne() {
    assertThat(new GitCredentials.Token("t").username()).isEqualTo("x-access-token");
    assertThat(new GitCredentials.Token("oauth2", "t").username()).isEqualTo("oauth2");
  }
}
