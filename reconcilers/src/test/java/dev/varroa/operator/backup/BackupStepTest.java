package dev.varroa.operator.backup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.BackupStatus;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.api.v1alpha1.HomeStatus;
import dev.varroa.operator.render.RenderFixtures;
import dev.varroa.operator.render.resolve.ResolvedController;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The backup step's outcomes that need no cluster (docs/controllers.md, "Status: who writes what": backup →
 * status.backup, BackupFailed, a recheck): nothing configured, a schedule not yet due, one held back by a restore,
 * one removed. Each sends no request, so the step has no client here; BackupStepIT takes snapshots on a real API
 * server.
 */
class BackupStepTest {
  private static final Instant NOW = Instant.parse("2026-12-04T12:00:00Z");
  private static final String STS = "jenkins-1a2b3c4d";
  private final BackupStep step = new BackupStep(null, Clock.fixed(NOW, ZoneOffset.UTC), QuietDown.NONE);
  private final Controller controller = RenderFixtures.controller("{}");

  @Test
  void aControllerWithoutBackupsReportsNothingAndAsksForNoRecheck() {
    BackupStep.Outcome outcome = step.run(controller, backup(Optional.empty()), new ControllerStatus(), null, STS,
        Optional.empty());

    assertThat(outcome.status()).isNull();
    assertThat(outcome.condition()).isEmpty();
    assertThat(outcome.recheck()).isEmpty();
  }

  @Test
  void aNewScheduleWaitsForItsNextTimeAndAsksToBeLookedAtJustAfter() {
    BackupStep.Outcome outcome = step.run(controller, backup(Optional.of("30 2 * * *")), new ControllerStatus(), null,
        STS, Optional.empty());

    assertThat(outcome.status().nextScheduledAt).isEqualTo("2026-12-05T02:30:00Z");
    assertThat(outcome.status().inProgress).as("a schedule just set does not fire at once").isNull();
    assertThat(outcome.condition()).isEmpty();
    assertThat(outcome.recheck()).contains(Duration.ofHours(14).plusMinutes(30).plusSeconds(1));
  }

  @Test
  void aScheduledBackupDueWhileTheHomeIsRestoredWaitsForTheRestore() {
    ControllerStatus previous = new ControllerStatus();
    previous.backup = new BackupStatus();
    previous.backup.nextScheduledAt = NOW.minusSeconds(60).toString();
    HomeStatus home = new HomeStatus();
    home.restore = new HomeStatus.HomeOperation();

    BackupStep.Outcome outcome = step.run(controller, backup(Optional.of("@daily")), previous, home, STS,
        Optional.empty());

    assertThat(outcome.status().inProgress).isNull();
    assertThat(outcome.status().nextScheduledAt).as("still due").isEqualTo(previous.backup.nextScheduledAt);
    assertThat(outcome.condition()).isEmpty();
    assertThat(outcome.recheck()).contains(BackupStep.DEFERRED_RECHECK);
  }

  @Test
  void aRemovedScheduleKeepsWhatEarlierBackupsReportedAndSchedulesNoMore() {
    ControllerStatus previous = new ControllerStatus();
    previous.backup = new BackupStatus();
    previous.backup.lastSuccessfulSnapshot = STS + "-backup-20261203-0230";
    previous.backup.nextScheduledAt = "2026-12-05T02:30:00Z";

    BackupStep.Outcome outcome = step.run(controller, backup(Optional.empty()), previous, null, STS, Optional.empty());

    assertThat(outcome.status().lastSuccessfulSnapshot).isEqualTo(previous.backup.lastSuccessfulSnapshot);
    assertThat(outcome.status().nextScheduledAt).isNull();
    assertThat(outcome.condition()).isEmpty();
    assertThat(outcome.recheck()).isEmpty();
  }

  private static ResolvedController.Backup backup(Optional<String> schedule) {
    return new ResolvedController.Backup(schedule, 7, Optional.empty(), 300);
  }
}
