package dev.varroa.plugin.jenkins;

import dev.varroa.plugin.events.BuildEventEmitter;
import hudson.Extension;
import hudson.model.Cause;
import hudson.model.Executor;
import hudson.model.Node;
import hudson.model.Result;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.model.listeners.RunListener;
import hudson.tasks.test.AbstractTestResultAction;

/**
 * RunStarted, RunCompleted (with the junit TestSummary) and RunFinalized for every run; a finalized run's console
 * log copy gets its last chunk.
 * Jenkins API: hudson.model.listeners.RunListener#onStarted(Run, TaskListener), #onCompleted(Run, TaskListener),
 * #onFinalized(Run); junit plugin: hudson.tasks.test.AbstractTestResultAction#getTotalCount/getFailCount/getSkipCount.
 */
@Extension
public final class RunEvents extends RunListener<Run<?, ?>> {

  @Override
  public void onStarted(Run<?, ?> run, TaskListener listener) {
    RunIdAction id = runId(run);
    VarroaRuntime.core().events().runStarted(id.getRunId(), job(run), run.getNumber(), node(run),
        id.getEnteredQueueAtMillis() > 0 ? run.getStartTimeInMillis() - id.getEnteredQueueAtMillis() : 0, cause(run));
  }

  @Override
  public void onCompleted(Run<?, ?> run, TaskListener listener) {
    String runId = runId(run).getRunId();
    VarroaRuntime.core().events().runCompleted(runId, job(run), run.getNumber(), result(run), duration(run));
    AbstractTestResultAction<?> tests = run.getAction(AbstractTestResultAction.class);
    if (tests != null) {
      VarroaRuntime.core().events().testSummary(runId, job(run), tests.getTotalCount(), tests.getFailCount(),
          tests.getSkipCount());
    }
  }

  @Override
  public void onFinalized(Run<?, ?> run) {
    String runId = runId(run).getRunId();
    VarroaRuntime.core().events().runFinalized(runId, job(run), run.getNumber(), result(run), duration(run));
    // finalized: Jenkins has closed the run's log, nothing more is written to it
    VarroaRuntime.core().runFinished(runId);
  }

  /** The run's id from its queue item; a run that never passed this plugin's queue listener gets a derived one. */
  static RunIdAction runId(Run<?, ?> run) {
    RunIdAction id = run.getAction(RunIdAction.class);
    if (id == null) {
      id = new RunIdAction(BuildEventEmitter.runIdOf(job(run), run.getNumber()), 0);
      run.addAction(id);
    }
    return id;
  }

  static String job(Run<?, ?> run) {
    return run.getParent().getFullName();
  }

  private static String node(Run<?, ?> run) {
    Executor executor = run.getExecutor();
    Node node = executor == null ? null : executor.getOwner().getNode();
    return node == null || node.getNodeName().isEmpty() ? "built-in" : node.getNodeName();
  }

  private static String cause(Run<?, ?> run) {
    return run.getCauses().stream().findFirst().map(Cause::getShortDescription).orElse("");
  }

  private static String result(Run<?, ?> run) {
    Result result = run.getResult();
    return result == null ? "" : result.toString();
  }

  private static long duration(Run<?, ?> run) {
    return run.getDuration() > 0 ? run.getDuration() : System.currentTimeMillis() - run.getStartTimeInMillis();
  }
}
