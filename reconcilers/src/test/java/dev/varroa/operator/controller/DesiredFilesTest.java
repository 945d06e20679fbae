package dev.varroa.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.mite.v1.DesiredState;
import dev.varroa.protocol.mite.v1.JenkinsToken;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DesiredFilesTest {
  private static final Map<String, String> JCASC = Map.of("jcasc.yaml", "jenkins: {}\n", "varroa-cloud.yaml", "x: 1\n");

  @Test
  void digestChangesWithJcascOrASecretValueButNotWithTheToken() {
    DesiredFiles base = new DesiredFiles(JCASC, Map.of("GITHUB_TOKEN", bytes("one")));
    DesiredFiles rotated = new DesiredFiles(JCASC, Map.of("GITHUB_TOKEN", bytes("two")));
    DesiredFiles edited = new DesiredFiles(Map.of("jcasc.yaml", "jenkins: {numExecutors: 0}\n",
        "varroa-cloud.yaml", "x: 1\n"), Map.of("GITHUB_TOKEN", bytes("one")));

    assertThat(base.digest()).isEqualTo(new DesiredFiles(JCASC, Map.of("GITHUB_TOKEN", bytes("one"))).digest())
        .isNotEqualTo(rotated.digest()).isNotEqualTo(edited.digest()).startsWith("sha256:");
    DesiredState a = base.toDesiredState(JenkinsToken.newBuilder().setJwt("a").build());
    DesiredState b = base.toDesiredState(JenkinsToken.newBuilder().setJwt("b").build());
    assertThat(a.getBundleDigest()).isEqualTo(b.getBundleDigest()).isEqualTo(base.digest());
    assertThat(a.getJcascFilesList()).extracting(f -> f.getPath()).containsExactly("jcasc.yaml", "varroa-cloud.yaml");
    assertThat(a.getSecretFiles(0).getContent().toStringUtf8()).isEqualTo("one");
  }

  @Test
  void printsNoSecretValue() {
    assertThat(new DesiredFiles(JCASC, Map.of("GITHUB_TOKEN", bytes("ghp_value"))).toString())
        .contains("GITHUB_TOKEN").doesNotContain("ghp_value");
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
