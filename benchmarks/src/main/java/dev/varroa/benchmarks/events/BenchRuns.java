package dev.varroa.benchmarks.events;

import dev.varroa.plugin.events.BuildEventEmitter;
import dev.varroa.plugin.events.SpoolAdmission;

/**
 * The runs the benchmark plays, the same in every process: run r is job {@code bench/job-<r mod 20>}, build
 * {@code r / 20 + 1}, and step s of it is always the same event, so a restarted plugin side emits the same events.
 */
final class BenchRuns {

  static final int EVENTS_PER_RUN = 25;
  static final int STAGES = 10;
  static final int JOBS = 20;

  private BenchRuns() {
  }

  static String runId(int run) {
    return "bench-" + run;
  }

  static String job(int run) {
    return "bench/job-" + (run % JOBS);
  }

  /** Step 1 queued, 2 started, 3..22 ten stages started and ended, 23 tests, 24 completed, 25 finalized. */
  static SpoolAdmission emit(BuildEventEmitter events, int run, int step) {
    String runId = runId(run);
    String job = job(run);
    long build = run / JOBS + 1;
    if (step == 1) {
      return events.runQueued(runId, job, run, "Started by timer");
    }
    if (step == 2) {
      return events.runStarted(runId, job, build, "agent-" + (run % 4), 120, "Started by timer");
    }
    if (step <= 2 + 2 * STAGES) {
      int stage = (step - 3) / 2;
      String branch = stage >= 4 && stage < 8 ? "branch-" + (stage % 2) : "";
      if ((step - 3) % 2 == 0) {
        return events.stageStarted(runId, job, "node-" + stage, "stage " + stage, branch);
      }
      return events.stageEnded(runId, job, "node-" + stage, "stage " + stage, branch, "SUCCESS", 40);
    }
    if (step == 23) {
      return events.testSummary(runId, job, 100, run % 3, 2);
    }
    if (step == 24) {
      return events.runCompleted(runId, job, build, "SUCCESS", 4_000);
    }
    return events.runFinalized(runId, job, build, "SUCCESS", 4_100);
  }
}
