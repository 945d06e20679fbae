package dev.varroa.operator.actions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.bus.v1.PipelineRunQueued;
import dev.varroa.protocol.mite.v1.CommandResult;
import org.junit.jupiter.api.Test;

class PipelineRunReporterTest {
  private static final PipelineRunReporter.Run RUN = new PipelineRunReporter.Run("r-1", "west", "cells", "shared-0",
      "tenant-a_alpha/build");

  @Test
  void aSucceededRunJobIsQueuedWithJenkinsQueueId() {
    PipelineRunQueued report = PipelineRunReporter.report(RUN, result(CommandResult.Outcome.SUCCEEDED, "201", 4711),
        "15 min", 1000);

    assertThat(report.getOutcome()).isEqualTo("queued");
    assertThat(report.getQueueId()).isEqualTo(4711);
    assertThat(report.getRequestId()).isEqualTo("r-1");
    assertThat(report.getCluster()).isEqualTo("west");
    assertThat(report.getCellNamespace()).isEqualTo("cells");
    assertThat(report.getCell()).isEqualTo("shared-0");
    assertThat(report.getJob()).isEqualTo("tenant-a_alpha/build");
    assertThat(report.getAtEpochMillis()).isEqualTo(1000);
  }

  @Test
  void aRunJobPastItsDeadlineAsksWhetherTheCellIsWaking() {
    PipelineRunQueued report = PipelineRunReporter.report(RUN, result(CommandResult.Outcome.DEADLINE_EXCEEDED,
        "still queued at its deadline", 0), "15 min", 1000);

    assertThat(report.getOutcome()).isEqualTo("failed");
    assertThat(report.getQueueId()).isZero();
    assertThat(report.getMessage()).startsWith("cell cells/shared-0 did not run job tenant-a_alpha/build within 15 min:"
        + " is it waking? see its status").endsWith("(still queued at its deadline)");
  }

  @Test
  void aFailedRunJobNamesTheCellTheJobAndTheMitesMessage() {
    PipelineRunQueued report = PipelineRunReporter.report(RUN, result(CommandResult.Outcome.FAILED,
        "Jenkins answered 404: no such job", 0), "15 min", 1000);

    assertThat(report.getOutcome()).isEqualTo("failed");
    assertThat(report.getMessage()).isEqualTo("cell cells/shared-0 did not queue job tenant-a_alpha/build: FAILED:"
        + " Jenkins answered 404: no such job");
  }

  private static CommandResult result(CommandResult.Outcome outcome, String message, long queueId) {
    return CommandResult.newBuilder().setCommandId("pipeline-run-r-1").setOutcome(outcome).setMessage(message)
        .setQueueId(queueId).build();
  }
}
