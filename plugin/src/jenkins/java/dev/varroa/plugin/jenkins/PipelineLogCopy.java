package dev.varroa.plugin.jenkins;

import dev.varroa.plugin.logs.LogCopy;
import hudson.Extension;
import hudson.model.Queue;
import hudson.model.Run;
import hudson.remoting.Channel;
import hudson.remoting.RemoteOutputStream;
import java.io.IOException;
import java.io.ObjectStreamException;
import java.io.OutputStream;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jenkinsci.plugins.workflow.flow.FlowExecutionOwner;
import org.jenkinsci.plugins.workflow.log.TaskListenerDecorator;
import org.kohsuke.accmod.restrictions.suppressions.SuppressRestrictedWarnings;

/**
 * Keeps Varroa's copy of every Pipeline run's console log beside Jenkins' own log storage: the decorator passes each
 * byte through to Jenkins' stream unchanged (the UI reads Jenkins' log as before) and appends it to the run's copy,
 * which the core ships to the blob store.
 * Jenkins API (workflow-api): TaskListenerDecorator.Factory#of(FlowExecutionOwner) and #isAppliedBeforeMainDecorator,
 * TaskListenerDecorator#decorate(OutputStream) (Serializable: it travels with the listener to agents);
 * FlowExecutionOwner#getExecutable; remoting: Channel.current(), RemoteOutputStream.
 */
@Extension(optional = true)
@SuppressRestrictedWarnings(TaskListenerDecorator.Factory.class)
public final class PipelineLogCopy implements TaskListenerDecorator.Factory {

  private static final Logger LOG = Logger.getLogger(PipelineLogCopy.class.getName());

  @Override
  public TaskListenerDecorator of(FlowExecutionOwner owner) {
    try {
      Queue.Executable executable = owner.getExecutable();
      if (executable instanceof Run<?, ?> run) {
        return new ControllerSide(RunEvents.runId(run).getRunId(), RunEvents.job(run));
      }
    } catch (IOException e) {
      LOG.log(Level.WARNING, "event=log_copy_unavailable owner=" + owner + " error=\"" + e.getMessage() + "\"");
    }
    return null;
  }

  /**
   * Applied before the step decorators (withCredentials' masking among them), so it sits nearest Jenkins' log and
   * copies exactly the bytes Jenkins stores: masked secrets stay masked in the copy.
   */
  @Override
  public boolean isAppliedBeforeMainDecorator() {
    return true;
  }

  /** The decorator on the controller: Jenkins' stream wrapped by the run's ConsoleLogSink. */
  static final class ControllerSide extends TaskListenerDecorator {

    private static final long serialVersionUID = 1;

    private final String runId;
    private final String job;

    ControllerSide(String runId, String job) {
      this.runId = runId;
      this.job = job;
    }

    @Override
    public OutputStream decorate(OutputStream logger) throws IOException {
      return VarroaRuntime.core().log(runId, job).sink(logger);
    }

    /*
     * Not remotable as it is: Pipeline sends a step's listener, decorators included, to the agent that runs the step
     * and decorates there. An agent cannot reach the mite's loopback listener (127.0.0.1 of the controller's pod) and
     * has no plugin core, so what goes to an agent is a tee whose copy half is a RemoteOutputStream back to this
     * run's copy: agent output comes back to the controller first and is copied here, on the controller.
     */
    private Object writeReplace() throws ObjectStreamException {
      if (Channel.current() == null) {
        return this;  // local serialization (the Pipeline program's state on the controller) keeps the ids only
      }
      try {
        LogCopy copy = VarroaRuntime.core().log(runId, job);
        return new AgentSide(new RemoteOutputStream(copy.copyOnly()));
      } catch (IOException | RuntimeException e) {
        LOG.log(Level.WARNING, "event=log_copy_unavailable run_id=" + runId + " error=\"" + e.getMessage()
            + "\" message=\"output of this agent step is not copied; Jenkins' own log is unaffected\"");
        return new AgentSide(null);
      }
    }
  }

  /** What runs on the agent: Jenkins' stream as it is, plus the same bytes to the controller's copy. */
  static final class AgentSide extends TaskListenerDecorator {

    private static final long serialVersionUID = 1;

    private final OutputStream copy;

    AgentSide(OutputStream copy) {
      this.copy = copy;
    }

    @Override
    public OutputStream decorate(OutputStream logger) {
      if (copy == null) {
        return logger;
      }
      return new OutputStream() {
        private boolean copyBroken;

        @Override
        public void write(int b) throws IOException {
          write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int count) throws IOException {
          logger.write(bytes, offset, count);
          if (!copyBroken) {
            try {
              copy.write(bytes, offset, count);
            } catch (IOException e) {
              copyBroken = true;  // the build must never fail for the copy's sake
            }
          }
        }

        @Override
        public void flush() throws IOException {
          logger.flush();
          if (!copyBroken) {
            try {
              copy.flush();
            } catch (IOException e) {
              copyBroken = true;
            }
          }
        }

        @Override
        public void close() throws IOException {
          logger.close();
        }
      };
    }
  }
}
