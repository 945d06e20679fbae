package dev.varroa.operator.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SnapshotRetentionTest {
  private static SnapshotRetention.Taken taken(String name, String at) {
    return new SnapshotRetention.Taken(name, Instant.parse(at));
  }

  private static final List<SnapshotRetention.Taken> FOUR = List.of(
      taken("b3", "2026-12-03T02:30:00Z"), taken("b1", "2026-12-01T02:30:00Z"),
      taken("b4", "2026-12-04T02:30:00Z"), taken("b2", "2026-12-02T02:30:00Z"));

  @Test
  void keepsTheNewestAndDeletesTheRest() {
    SnapshotRetention.Decision decision = SnapshotRetention.decide(FOUR, 2, Set.of());
    assertThat(decision.keep()).containsExactly("b3", "b4");
    assertThat(decision.delete()).containsExactlyInAnyOrder("b1", "b2");
  }

  @Test
  void neverDeletesASnapshotARestoreUses() {
    SnapshotRetention.Decision decision = SnapshotRetention.decide(FOUR, 1, Set.of("b1"));
    assertThat(decision.delete()).containsExactlyInAnyOrder("b2", "b3");
    assertThat(decision.keep()).containsExactly("b1", "b4");
  }

  @Test
  void snapshotNamesComeFromTheStartTimeSoARetryFindsTheSameObject() {
    assertThat(BackupNames.snapshot("ci-1a2b3c4d", Instant.parse("2026-12-02T02:30:05Z")))
        .isEqualTo("ci-1a2b3c4d-backup-20261202-023005");
    assertThat(BackupNames.homeClaim("ci-1a2b3c4d")).isEqualTo("jenkins-home-ci-1a2b3c4d-0");
  }
}
