package dev.varroa.recorder.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.RunCompleted;
import dev.varroa.protocol.builds.v1.RunQueued;
import dev.varroa.protocol.builds.v1.RunStarted;
import dev.varroa.protocol.builds.v1.TestSummary;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RunPatchTest {

  private static BuildEvent.Builder event(long sequence) {
    return BuildEvent.newBuilder().setRunId("r").setSequence(sequence).setJob("j").setEmittedAtEpochMillis(5_000);
  }

  @Test
  void aQueuedRunWithoutCauseLeavesTheCauseToLaterEvents() {
    RunPatch patch = RunPatch.of(event(1).setRunQueued(RunQueued.newBuilder().setQueueId(9)).build());
    assertThat(patch.queueId()).isEqualTo(9);
    assertThat(patch.queuedAt()).isEqualTo(Instant.ofEpochMilli(5_000));
    assertThat(patch.queuedSequence()).isEqualTo(1);
    assertThat(patch.cause()).isNull();
    assertThat(patch.causeSequence()).isNull();
  }

  @Test
  void aStartedRunWithoutBuildNumberDoesNotClaimTheBuildNumber() {
    RunPatch patch = RunPatch.of(event(2).setRunStarted(RunStarted.newBuilder().setNode("built-in").setCause("timer"))
        .build());
    assertThat(patch.buildNumber()).isNull();
    assertThat(patch.buildNumberSequence()).isNull();
    assertThat(patch.node()).isEqualTo("built-in");
    assertThat(patch.startedSequence()).isEqualTo(2);
    assertThat(patch.causeSequence()).isEqualTo(2);
  }

  @Test
  void aCompletedRunSetsResultAndDurationTogether() {
    RunPatch patch = RunPatch.of(event(6).setRunCompleted(RunCompleted.newBuilder().setBuildNumber(3)
        .setResult("FAILURE").setDurationMillis(70)).build());
    assertThat(patch.result()).isEqualTo("FAILURE");
    assertThat(patch.durationMillis()).isEqualTo(70);
    assertThat(patch.resultSequence()).isEqualTo(6);
    assertThat(patch.completedSequence()).isEqualTo(6);
    assertThat(patch.finalizedSequence()).isNull();
    assertThat(patch.buildNumber()).isEqualTo(3);
  }

  @Test
  void aTestSummaryOnlyMovesTheHighestSequence() {
    RunPatch patch = RunPatch.of(event(4).setTestSummary(TestSummary.newBuilder().setTotal(1)).build());
    assertThat(patch.sequence()).isEqualTo(4);
    assertThat(patch.startedSequence()).isNull();
    assertThat(patch.resultSequence()).isNull();
    assertThat(patch.queuedSequence()).isNull();
  }
}
