package dev.varroa.plugin.events;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StageStatusTest {

  @Test
  void skippedWinsThenErrorThenWarningElseSuccess() {
    assertThat(StageStatus.of("FAILURE", null, "SKIPPED_FOR_FAILURE")).isEqualTo("SKIPPED");
    assertThat(StageStatus.of("ABORTED", "UNSTABLE", null)).isEqualTo("ABORTED");
    assertThat(StageStatus.of("", null, null)).isEqualTo("FAILURE");
    assertThat(StageStatus.of(null, "UNSTABLE", null)).isEqualTo("UNSTABLE");
    assertThat(StageStatus.of(null, null, null)).isEqualTo("SUCCESS");
  }
}
