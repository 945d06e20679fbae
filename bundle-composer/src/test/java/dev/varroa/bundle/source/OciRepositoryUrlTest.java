package dev.varroa.bundle.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.api.v1alpha1.OciSource;
import dev.varroa.bundle.BundleException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class OciRepositoryUrlTest {

  @ParameterizedTest
  @CsvSource({
      "oci://registry.example.com/ci/bundles/team-a, registry.example.com, ci/bundles/team-a",
      "oci://127.0.0.1:5000/ci/bundles/team-a/, 127.0.0.1:5000, ci/bundles/team-a",
      "oci://ghcr.io/acme/jenkins__bundles, ghcr.io, acme/jenkins__bundles",
  })
  void splitsRegistryAndRepository(String url, String registry, String repository) throws Exception {
    OciRepositoryUrl parsed = OciRepositoryUrl.parse(Inputs.ref(oci(url)), url);

    assertThat(parsed.registry()).isEqualTo(registry);
    assertThat(parsed.repository()).isEqualTo(repository);
    assertThat(parsed.reference("1.4.0")).isEqualTo(registry + "/" + repository + ":1.4.0");
    assertThat(parsed.reference("sha256:" + "0".repeat(64))).isEqualTo(registry + "/" + repository + "@sha256:" + "0".repeat(64));
  }

  @ParameterizedTest
  @ValueSource(strings = {"https://registry.example.com/x", "oci://registry.example.com", "oci://registry.example.com/",
      "oci://registry.example.com/Team-A", "oci://registry.example.com/team-a:1.0.0", "oci://registry.example.com/a@sha256:00",
      "oci://bad host/x"})
  void refusesUrlsThatNameNoPlainRepository(String url) {
    assertThatThrownBy(() -> OciRepositoryUrl.parse(Inputs.ref(oci(url)), url))
        .isInstanceOf(BundleException.class)
        .hasMessageContaining(url)
        .hasMessageContaining("fix: write the url as oci://");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "tag | 1.4.0 | TAG",
      "semver | >=1.0.0 | SEMVER",
      "digest | sha256:0000000000000000000000000000000000000000000000000000000000000000 | DIGEST",
  })
  void readsExactlyOneRef(String kind, String value, OciRefSelector.Kind expected) throws Exception {
    OciSource oci = Inputs.oci("oci://r.example.com/x", kind, value, null);

    assertThat(OciRefSelector.of(Inputs.ref(oci), oci.ref).kind()).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {"tag | bad tag", "semver | ??", "digest | sha256:abc"})
  void refusesMalformedRefs(String kind, String value) {
    OciSource oci = Inputs.oci("oci://r.example.com/x", kind, value, null);

    assertThatThrownBy(() -> OciRefSelector.of(Inputs.ref(oci), oci.ref)).isInstanceOf(BundleException.class);
  }

  private static OciSource oci(String url) {
    return Inputs.oci(url, "tag", "1.0.0", null);
  }
}
