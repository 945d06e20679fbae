package dev.varroa.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;

class ArtifactPrefixesTest {

  private static final String BUCKET = "https://s3.example.com/varroa-records";

  @Test
  void poolPrefixNamesClusterNamespaceAndPool() {
    assertThat(ArtifactPrefixes.poolPrefix(BUCKET, "prod-eu", "ci", "shared"))
        .isEqualTo("artifacts/prod-eu/ci/shared/");
  }

  @Test
  void cellPrefixSitsUnderItsPoolsPrefix() {
    String cell = ArtifactPrefixes.cellPrefix(BUCKET, "prod-eu", "ci", "shared", "shared-12");
    assertThat(cell).isEqualTo("artifacts/prod-eu/ci/shared/shared-12/")
        .startsWith(ArtifactPrefixes.poolPrefix(BUCKET, "prod-eu", "ci", "shared"));
  }

  @Test
  void keepsTheBucketUrlsOwnKeyPrefixInFront() {
    String url = "https://s3.example.com:9000/varroa-records/team-a/varroa/";
    assertThat(ArtifactPrefixes.poolPrefix(url, "local", "ci", "shared"))
        .isEqualTo("team-a/varroa/artifacts/local/ci/shared/");
    assertThat(ArtifactPrefixes.BucketUrl.parse(url))
        .isEqualTo(new ArtifactPrefixes.BucketUrl(URI.create("https://s3.example.com:9000"), "varroa-records",
            "team-a/varroa/"));
  }

  @Test
  void aPoolWhoseNameExtendsAnotherGetsADisjointPrefix() {
    // "shared" must not be a string prefix of "shared-2"'s keys, or one pool's policy pattern would cover the other.
    String one = ArtifactPrefixes.poolPrefix(BUCKET, "local", "ci", "shared");
    String two = ArtifactPrefixes.poolPrefix(BUCKET, "local", "ci", "shared-2");
    assertThat(two).doesNotStartWith(one);
    assertThat(one).doesNotStartWith(two);
  }

  @Test
  void secretNameIsTheArtifactSecretAndThePool() {
    assertThat(ArtifactPrefixes.secretName("varroa-artifacts", "shared")).isEqualTo("varroa-artifacts-shared");
  }

  @Test
  void refusesACellOfAnotherPool() {
    assertThatThrownBy(() -> ArtifactPrefixes.cellPrefix(BUCKET, "local", "ci", "shared", "other-0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cell 'other-0' is not a cell of CellPool ci/shared")
        .hasMessageContaining("shared-0");
  }

  @Test
  void refusesNamesThatWouldWidenOrBreakThePattern() {
    assertThatThrownBy(() -> ArtifactPrefixes.poolPrefix(BUCKET, "local", "ci", "*"))
        .hasMessageContaining("CellPool name '*'").hasMessageContaining("DNS-1123 label");
    assertThatThrownBy(() -> ArtifactPrefixes.poolPrefix(BUCKET, "a.b", "ci", "shared"))
        .hasMessageContaining("cluster name 'a.b'").hasMessageContaining("VARROA_CLUSTER_NAME");
    assertThatThrownBy(() -> ArtifactPrefixes.poolPrefix(BUCKET, "local", "../x", "shared"))
        .hasMessageContaining("namespace '../x'");
    assertThatThrownBy(() -> ArtifactPrefixes.secretName("Bad_Secret", "shared"))
        .hasMessageContaining("recordStore.blobs.s3.artifactSecret 'Bad_Secret'");
    assertThatThrownBy(() -> ArtifactPrefixes.secretName("a".repeat(250), "shared"))
        .hasMessageContaining("longer than 253");
  }

  @Test
  void refusesABucketUrlWithoutBucketOrWithCredentials() {
    assertThatThrownBy(() -> ArtifactPrefixes.BucketUrl.parse("https://s3.example.com/"))
        .hasMessageContaining("names no bucket");
    assertThatThrownBy(() -> ArtifactPrefixes.BucketUrl.parse("https://key:secret@s3.example.com/b"))
        .hasMessageContaining("must not carry credentials")
        .hasMessageNotContaining("secret@");
    assertThatThrownBy(() -> ArtifactPrefixes.BucketUrl.parse("s3://b/x"))
        .hasMessageContaining("http:// or https://");
    assertThatThrownBy(() -> ArtifactPrefixes.BucketUrl.parse(" "))
        .hasMessageContaining("recordStore.blobs.s3.url");
  }
}
