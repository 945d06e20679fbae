package dev.varroa.bundle.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RevisionFormatTest {
  private static final String COMMIT = "0123456789abcdef0123456789abcdef01234567";
  private static final String DIGEST = "sha256:" + "ab".repeat(32);

  @Test
  void writesGitRevisionsAsFluxDoes() {
    assertThat(new GitRevision("main", COMMIT).revision()).isEqualTo("main@sha1:" + COMMIT);
    assertThat(new GitRevision("v1.2.3", COMMIT).revision()).isEqualTo("v1.2.3@sha1:" + COMMIT);
    assertThat(new GitRevision(null, COMMIT).revision()).isEqualTo("sha1:" + COMMIT);
  }

  @Test
  void writesOciRevisionsAsFluxDoes() {
    assertThat(new OciRevision("1.4.0", DIGEST).revision()).isEqualTo("1.4.0@" + DIGEST);
    assertThat(new OciRevision(null, DIGEST).revision()).isEqualTo(DIGEST);
  }

  @Test
  void readsBackWhatItWrote() {
    for (GitRevision r : new GitRevision[] {new GitRevision("feature@x", COMMIT), new GitRevision(null, COMMIT)}) {
      assertThat(GitRevision.parse(r.revision())).isEqualTo(r);
    }
    for (OciRevision r : new OciRevision[] {new OciRevision("1.4.0", DIGEST), new OciRevision(null, DIGEST)}) {
      assertThat(OciRevision.parse(r.revision())).isEqualTo(r);
    }
  }

  @Test
  void refusesMalformedRevisions() {
    assertThatThrownBy(() -> GitRevision.parse("main@" + COMMIT)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> OciRevision.parse("1.4.0@sha256:abc")).isInstanceOf(IllegalArgumentException.class);
  }
}
