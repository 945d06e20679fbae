package dev.varroa.bundle.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class EntryPathTest {

  @ParameterizedTest
  @CsvSource({
      "a/b.yaml, a/b.yaml",
      "./a/b.yaml, a/b.yaml",
      "a//b/, a/b",
      "./, ''",
      "a/./b, a/b",
  })
  void normalisesSeparatorsAndDotSegments(String raw, String expected) {
    assertThat(EntryPath.of(raw).value()).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/etc/passwd", "\\windows\\evil", "C:/evil", "../x", "a/../../x", "a\\..\\..\\x", "a/..", "x\0y"})
  void refusesPathsThatEscapeOrAreAbsolute(String raw) {
    assertThatThrownBy(() -> EntryPath.of(raw)).isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest
  @CsvSource({
      "teams/a, teams/a/x.yaml, x.yaml",
      "teams/a, teams/ab/x.yaml, ",
      "teams/a, teams/a, ",
      "'', x.yaml, x.yaml",
  })
  void relativizesEntriesToTheFolderOnlyWhenInside(String folder, String entry, String expected) throws Exception {
    SourceFolder sourceFolder = SourceFolder.of(Inputs.archive(folder), folder);

    assertThat(sourceFolder.relativize(EntryPath.of(entry))).isEqualTo(expected);
  }
}
