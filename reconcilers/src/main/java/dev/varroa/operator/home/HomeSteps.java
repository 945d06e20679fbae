package dev.varroa.operator.home;

import dev.varroa.api.v1alpha1.Condition;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** What the restore and the move share: how soon they look again, and how they set their condition. */
final class HomeSteps {
  /** A step waits on a pod, a claim, a Job or a volume: look again this soon (Jobs and volumes are not watched). */
  static final Optional<Duration> STEP_RECHECK = Optional.of(Duration.ofSeconds(1));
  /** A snapshot that is missing or not ready yet: snapshots are not watched (their API may not even be installed). */
  static final Optional<Duration> SNAPSHOT_RECHECK = Optional.of(Duration.ofSeconds(5));

  private HomeSteps() {}

  static List<Condition> condition(String type, boolean status, String reason, String message) {
    return List.of(new Condition(type, status ? Condition.Status.True : Condition.Status.False, reason, message));
  }

  static List<Condition> noCondition() {
    return List.of();
  }
}
