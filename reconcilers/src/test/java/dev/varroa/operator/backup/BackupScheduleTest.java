package dev.varroa.operator.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class BackupScheduleTest {
  @Test
  void firesAtTheNextMatchingMinuteInUtc() {
    BackupSchedule nightly = BackupSchedule.parse("30 2 * * *");
    assertThat(nightly.nextAfter(Instant.parse("2026-12-02T01:00:00Z"))).contains(Instant.parse("2026-12-02T02:30:00Z"));
    assertThat(nightly.nextAfter(Instant.parse("2026-12-02T02:30:00Z"))).contains(Instant.parse("2026-12-03T02:30:00Z"));
  }

  @Test
  void acceptsTheUsualAliases() {
    Instant noon = Instant.parse("2026-12-02T12:10:00Z");
    assertThat(BackupSchedule.parse("@hourly").nextAfter(noon)).contains(Instant.parse("2026-12-02T13:00:00Z"));
    assertThat(BackupSchedule.parse("@daily").nextAfter(noon)).contains(Instant.parse("2026-12-03T00:00:00Z"));
    assertThat(BackupSchedule.parse("@weekly").nextAfter(noon)).contains(Instant.parse("2026-12-06T00:00:00Z"));
  }

  @Test
  void rejectsWhatIsNotFiveCronFields() {
    assertThatThrownBy(() -> BackupSchedule.parse("every night")).isInstanceOf(BackupSchedule.InvalidSchedule.class);
    assertThatThrownBy(() -> BackupSchedule.parse("61 * * * *")).isInstanceOf(BackupSchedule.InvalidSchedule.class);
    assertThatThrownBy(() -> BackupSchedule.parse(" ")).hasMessageContaining("empty");
  }
}
