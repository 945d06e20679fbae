package dev.varroa.plugin.jenkins;

import hudson.Extension;
import hudson.console.ConsoleLogFilter;
import hudson.model.AbstractBuild;
import hudson.model.Run;
import java.io.IOException;
import java.io.OutputStream;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps Varroa's copy of every Freestyle (AbstractBuild) run's console log: the run's stream is wrapped by its
 * ConsoleLogSink, Jenkins' own log gets every byte unchanged. Output a build step writes on an agent comes back to
 * the controller's listener over remoting before it reaches this stream, so it is copied on the controller.
 * Pipeline runs are left to {@link PipelineLogCopy}, so no run is copied twice.
 * Jenkins API: hudson.console.ConsoleLogFilter#decorateLogger(Run, OutputStream) (an ExtensionPoint, called once
 * when a build starts).
 */
@Extension
public final class FreestyleLogCopy extends ConsoleLogFilter {

  private static final Logger LOG = Logger.getLogger(FreestyleLogCopy.class.getName());

  @Override
  public OutputStream decorateLogger(Run build, OutputStream logger) throws IOException, InterruptedException {
    if (!(build instanceof AbstractBuild<?, ?> run)) {
      return logger;
    }
    try {
      return VarroaRuntime.core().log(RunEvents.runId(run).getRunId(), RunEvents.job(run)).sink(logger);
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "event=log_copy_unavailable job=\"" + RunEvents.job(run) + "\" build=" + run.getNumber()
          + " error=\"" + e.getMessage() + "\" message=\"this run's log is not copied; Jenkins' own log is unaffected\"");
      return logger;
    }
  }
}
