package dev.varroa.plugin.jenkins;

import dev.varroa.plugin.PluginCore;
import hudson.init.InitMilestone;
import hudson.init.Initializer;
import hudson.model.Job;
import hudson.model.Run;
import jenkins.model.Jenkins;

/**
 * After a restart, finishes the log copies of runs that will never write again: a Freestyle build cut off by the
 * restart never reaches onFinalized, and a deleted job's runs never will. Resumed Pipeline runs are building again
 * by then and keep their copies. Jenkins API: Job.getBuilds(), Run.isBuilding(), Jenkins.getItemByFullName.
 */
public final class OrphanedLogCopies {

  /** Runs further back than this are not looked at: a building run is among a job's newest. */
  static final int NEWEST_RUNS = 50;

  private OrphanedLogCopies() {
  }

  @Initializer(after = InitMilestone.COMPLETED)
  public static void finishOrphans() {
    PluginCore core = VarroaRuntime.core();
    for (String runId : core.logs().runIds()) {
      String job = core.logs().jobOf(runId).orElse("");
      if (!building(job, runId)) {
        core.runFinished(runId);
      }
    }
  }

  private static boolean building(String jobName, String runId) {
    Job<?, ?> job = Jenkins.get().getItemByFullName(jobName, Job.class);
    if (job == null) {
      return false;
    }
    for (Run<?, ?> run : job.getBuilds().limit(NEWEST_RUNS)) {
      RunIdAction id = run.getAction(RunIdAction.class);
      if (id != null && id.getRunId().equals(runId)) {
        return run.isBuilding();
      }
    }
    return false;
  }
}
