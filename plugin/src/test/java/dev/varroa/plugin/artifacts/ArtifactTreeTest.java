package dev.varroa.plugin.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArtifactTreeTest {

  private static final ArtifactTree TREE = ArtifactTree.of(List.of(
      file("target/app.jar"),
      file("target/site/index.html"),
      file("target/site/css/main.css"),
      file("target-old/app.jar"),
      file("target.txt"),
      file("README.md")));

  @Test
  void theRootListsTopLevelNamesOnceEach() {
    assertThat(TREE.children("")).containsExactly("README.md", "target", "target-old", "target.txt");
    assertThat(TREE.isFolder("")).isTrue();
  }

  @Test
  void aFolderListsOnlyItsOwnChildrenNotASiblingWithTheSameStart() {
    assertThat(TREE.children("target")).containsExactly("app.jar", "site");
    assertThat(TREE.children("target/site")).containsExactly("css", "index.html");
    assertThat(TREE.children("target/site/css")).containsExactly("main.css");
  }

  @Test
  void aFolderExistsOnlyBecauseAFileLiesBelowIt() {
    assertThat(TREE.isFolder("target/site")).isTrue();
    assertThat(TREE.isFolder("target/app.jar")).isFalse();
    assertThat(TREE.isFolder("target/sit")).isFalse();
    assertThat(TREE.isFolder("nowhere")).isFalse();
    assertThat(TREE.children("nowhere")).isEmpty();
    assertThat(TREE.children("target/app.jar")).isEmpty();
  }

  @Test
  void findsAFileByItsPathHoweverTheSegmentsAreJoined() {
    assertThat(TREE.file("target/site/index.html")).map(StoredArtifact::key).contains("k/target/site/index.html");
    assertThat(TREE.file("/target//site/index.html/")).map(StoredArtifact::relativePath)
        .contains("target/site/index.html");
    assertThat(TREE.file("target/site")).isEmpty();
  }

  @Test
  void aBuildThatArchivedNothingHasNoRootFolder() {
    ArtifactTree empty = ArtifactTree.of(List.of());
    assertThat(empty.isFolder("")).isFalse();
    assertThat(empty.children("")).isEmpty();
  }

  @Test
  void aPathThatIsAFileAndAFolderKeepsBoth() {
    ArtifactTree tree = ArtifactTree.of(List.of(file("out"), file("out/log.txt")));
    assertThat(tree.file("out")).isPresent();
    assertThat(tree.isFolder("out")).isTrue();
    assertThat(tree.children("out")).containsExactly("log.txt");
  }

  @Test
  void leavesOutFolderMarkerKeys() {
    ArtifactTree tree = ArtifactTree.of(List.of(file("empty/"), file("x/y")));
    assertThat(tree.children("")).containsExactly("x");
    assertThat(tree.files()).containsOnlyKeys("x/y");
  }

  @Test
  void joinsSplitsAndNamesPaths() {
    assertThat(ArtifactTree.child("", "a/b")).isEqualTo("a/b");
    assertThat(ArtifactTree.child("a", "b/c/")).isEqualTo("a/b/c");
    assertThat(ArtifactTree.child("a", "")).isEqualTo("a");
    assertThat(ArtifactTree.parent("a/b/c")).isEqualTo("a/b");
    assertThat(ArtifactTree.parent("a")).isEmpty();
    assertThat(ArtifactTree.name("a/b/c")).isEqualTo("c");
    assertThat(ArtifactTree.name("")).isEmpty();
  }

  @Test
  void refusesAPathThatClimbsOutOfTheBuildsArtifacts() {
    assertThatThrownBy(() -> TREE.file("target/../../other-job/1/x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'target/../../other-job/1/x'").hasMessageContaining("'..'");
    assertThatThrownBy(() -> ArtifactTree.child("a", "./b")).hasMessageContaining("'./b'");
  }

  private static StoredArtifact file(String path) {
    return new StoredArtifact(path, "k/" + path, path.length(), Instant.EPOCH);
  }
}
