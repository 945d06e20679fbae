package dev.varroa.operator.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class RepositoryKeyTest {
  @ParameterizedTest
  @ValueSource(strings = {
      "https://github.com/acme/bundles.git",
      "https://github.com/acme/bundles",
      "https://github.com/acme/bundles/",
      "https://GitHub.COM/acme/bundles.git/",
      "http://github.com:8080/acme/bundles.git",
      "https://x-access-token:s3cret@github.com/acme/bundles.git",
      "ssh://git@github.com/acme/bundles.git",
      "ssh://git@github.com:22/acme/bundles",
      "git@github.com:acme/bundles.git",
      "git@github.com:acme/bundles",
      "github.com:acme/bundles.git",
      "git://github.com/acme/bundles.git"})
  void everyFormOfOneRepositoryHasTheSameKey(String url) {
    assertThat(RepositoryKey.ofGitUrl(url)).contains(new RepositoryKey("github.com", "acme/bundles"));
  }

  @Test
  void keepsThePathCaseAndTellsRepositoriesApart() {
    assertThat(RepositoryKey.ofGitUrl("https://github.com/acme/Bundles")).isNotEqualTo(
        RepositoryKey.ofGitUrl("https://github.com/acme/bundles"));
    assertThat(RepositoryKey.ofGitUrl("https://github.com/acme/bundles-a")).isNotEqualTo(
        RepositoryKey.ofGitUrl("https://github.com/acme/bundles"));
    assertThat(RepositoryKey.ofGitUrl("https://gitlab.com/acme/bundles")).isNotEqualTo(
        RepositoryKey.ofGitUrl("https://github.com/acme/bundles"));
  }

  @Test
  void namesNoCredentialsWhenPrinted() {
    assertThat(RepositoryKey.ofGitUrl("https://user:s3cret@git.example.com/ci/bundles.git")).get()
        .hasToString("git.example.com/ci/bundles");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "   ", "not a url", "ftp://example.com/ci/bundles.git", "https://", "https://github.com/", "oci://r/x"})
  void refusesWhatIsNoGitUrl(String url) {
    assertThat(RepositoryKey.ofGitUrl(url)).isEmpty();
  }

  @Test
  void ociKeysKeepTheRegistryPortAndMatchTheNotification() {
    assertThat(RepositoryKey.ofOciUrl("oci://Registry.example.com:5000/ci/bundles/team-a"))
        .contains(new RepositoryKey("registry.example.com:5000", "ci/bundles/team-a"))
        .isEqualTo(RepositoryKey.ofRegistry("registry.example.com:5000", "ci/bundles/team-a"));
    assertThat(RepositoryKey.ofOciUrl("oci://registry.example.com/ci/bundles/team-a"))
        .isNotEqualTo(RepositoryKey.ofOciUrl("oci://registry.example.com:5000/ci/bundles/team-a"));
    assertThat(RepositoryKey.ofOciUrl("https://registry.example.com/ci")).isEmpty();
  }
}
