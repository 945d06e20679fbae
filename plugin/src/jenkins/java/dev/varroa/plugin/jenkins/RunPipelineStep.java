package dev.varroa.plugin.jenkins;

import dev.varroa.plugin.calls.CalledRun;
import dev.varroa.plugin.calls.PipelineCallArguments;
import dev.varroa.plugin.calls.PipelineCallFailed;
import hudson.AbortException;
import hudson.Extension;
import hudson.model.Run;
import hudson.model.TaskListener;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jenkinsci.Symbol;
import org.jenkinsci.plugins.workflow.steps.Step;
import org.jenkinsci.plugins.workflow.steps.StepContext;
import org.jenkinsci.plugins.workflow.steps.StepDescriptor;
import org.jenkinsci.plugins.workflow.steps.StepExecution;
import org.jenkinsci.plugins.workflow.steps.SynchronousNonBlockingStepExecution;
import org.kohsuke.stapler.DataBoundConstructor;
import org.kohsuke.stapler.DataBoundSetter;

/**
 * {@code varroaRunPipeline team: 'payments', pipeline: 'deploy', parameters: [VERSION: '1.4'], cluster: '',
 * timeoutMinutes: 60}: runs another Team's pipeline and waits for its result (docs/pipelines.md, "Call another
 * team's pipeline"). Returns the result (SUCCESS); any other end fails the step with the core's message.
 * Jenkins API: org.jenkinsci.plugins.workflow.steps.Step / StepDescriptor (function name, required context Run and
 * TaskListener), SynchronousNonBlockingStepExecution (run() on its own thread; stop() interrupts it, a restart fails
 * it); hudson.AbortException (the failure without a stack trace).
 */
public final class RunPipelineStep extends Step {

  private final String team;
  private final String pipeline;
  private String cluster = "";
  private Map<String, Object> parameters = Map.of();
  private Integer timeoutMinutes;

  @DataBoundConstructor
  public RunPipelineStep(String team, String pipeline) {
    this.team = team;
    this.pipeline = pipeline;
  }

  public String getTeam() {
    return team;
  }

  public String getPipeline() {
    return pipeline;
  }

  public String getCluster() {
    return cluster;
  }

  @DataBoundSetter
  public void setCluster(String cluster) {
    this.cluster = cluster == null ? "" : cluster;
  }

  public Map<String, Object> getParameters() {
    return parameters;
  }

  @DataBoundSetter
  public void setParameters(Map<String, Object> parameters) {
    this.parameters = parameters == null ? Map.of() : new TreeMap<>(parameters);
  }

  public Integer getTimeoutMinutes() {
    return timeoutMinutes;
  }

  @DataBoundSetter
  public void setTimeoutMinutes(Integer timeoutMinutes) {
    this.timeoutMinutes = timeoutMinutes;
  }

  @Override
  public StepExecution start(StepContext context) throws Exception {
    PipelineCallArguments arguments;
    try {
      arguments = PipelineCallArguments.of(team, pipeline, cluster, parameters, timeoutMinutes);
    } catch (IllegalArgumentException e) {
      throw new AbortException(e.getMessage());
    }
    return new Execution(context, arguments);
  }

  /** Waits on a thread of its own: the wait may last the whole timeout. */
  static final class Execution extends SynchronousNonBlockingStepExecution<String> {

    private static final long serialVersionUID = 1L;

    private final transient PipelineCallArguments arguments;

    Execution(StepContext context, PipelineCallArguments arguments) {
      super(context);
      this.arguments = arguments;
    }

    @Override
    protected String run() throws Exception {
      Run<?, ?> run = getContext().get(Run.class);
      TaskListener listener = getContext().get(TaskListener.class);
      String runId = RunEvents.runId(run).getRunId();
      try {
        CalledRun called = VarroaRuntime.core().pipelineCalls().call(runId, RunEvents.job(run), arguments,
            line -> listener.getLogger().println("[varroaRunPipeline] " + line));
        if (!called.url().isEmpty()) {
          run.addAction(new CalledRunAction(called.pipelineName(), called.cluster(), called.runId(), called.url()));
        }
        return called.result();
      } catch (PipelineCallFailed e) {
        throw new AbortException("varroaRunPipeline: " + e.getMessage());
      } catch (InterruptedException e) {
        listener.getLogger().println("[varroaRunPipeline] stopped waiting; the called run is not cancelled");
        throw e;
      }
    }
  }

  @Extension
  @Symbol(PipelineCallArguments.STEP)
  public static final class DescriptorImpl extends StepDescriptor {

    @Override
    public String getFunctionName() {
      return PipelineCallArguments.STEP;
    }

    @Override
    public String getDisplayName() {
      return "Run another Team's pipeline and wait for its result";
    }

    @Override
    public Set<? extends Class<?>> getRequiredContext() {
      return Set.of(Run.class, TaskListener.class);
    }
  }
}
