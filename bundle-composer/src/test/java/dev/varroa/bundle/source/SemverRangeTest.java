package dev.varroa.bundle.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SemverRangeTest {
  private static final List<String> TAGS =
      List.of("v1.2.0", "1.3.1", "v1.4.0", "v1.4.7", "1.10.0", "2.0.0", "2.1.0-rc.1", "latest", "release-3", "v1.9");

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      ">=1.2.0 <2.0.0 | 1.10.0",
      "~1.4 | v1.4.7",
      "1.x | 1.10.0",
      "^1.2 | 1.10.0",
      ">=2.0.0 | 2.0.0",
      "<1.3.0 | v1.2.0",
  })
  void picksTheHighestTagInTheRangeWithOrWithoutV(String range, String expected) {
    assertThat(SemverRange.parse(range).orElseThrow().highest(TAGS)).contains(expected);
  }

  @Test
  void leavesPreReleasesOutUnlessTheRangeNamesOne() {
    assertThat(SemverRange.parse(">=2.0.0").orElseThrow().highest(List.of("2.0.0", "2.1.0-rc.1"))).contains("2.0.0");
  }

  @Test
  void breaksTiesBetweenEqualVersionsByName() {
    assertThat(SemverRange.parse("1.x").orElseThrow().highest(List.of("v1.2.3", "1.2.3"))).contains("1.2.3");
    assertThat(SemverRange.parse("1.x").orElseThrow().highest(List.of("1.2.3", "v1.2.3"))).contains("1.2.3");
  }

  @Test
  void findsNothingWhenNoTagMatches() {
    assertThat(SemverRange.parse(">=5.0.0").orElseThrow().highest(TAGS)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "  ", "garbage!!"})
  void refusesWhatIsNotARange(String range) {
    assertThat(SemverRange.parse(range)).isEmpty();
  }
}
