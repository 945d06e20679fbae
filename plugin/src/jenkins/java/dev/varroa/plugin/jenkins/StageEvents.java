package dev.varroa.plugin.jenkins;

import dev.varroa.plugin.events.StageStatus;
import hudson.Extension;
import hudson.model.Queue;
import hudson.model.Run;
import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jenkinsci.plugins.workflow.actions.ErrorAction;
import org.jenkinsci.plugins.workflow.actions.LabelAction;
import org.jenkinsci.plugins.workflow.actions.TagsAction;
import org.jenkinsci.plugins.workflow.actions.ThreadNameAction;
import org.jenkinsci.plugins.workflow.actions.TimingAction;
import org.jenkinsci.plugins.workflow.actions.WarningAction;
import org.jenkinsci.plugins.workflow.flow.GraphListener;
import org.jenkinsci.plugins.workflow.graph.BlockEndNode;
import org.jenkinsci.plugins.workflow.graph.BlockStartNode;
import org.jenkinsci.plugins.workflow.graph.FlowNode;
import org.jenkinsci.plugins.workflow.steps.FlowInterruptedException;

/**
 * StageStarted / StageEnded for Pipeline stages: a block start with a label that is not a parallel branch is a
 * stage; the enclosing block named by a ThreadNameAction is its parallel branch.
 * Jenkins API: workflow-api org.jenkinsci.plugins.workflow.flow.GraphListener#onNewHead(FlowNode).
 */
@Extension
public final class StageEvents implements GraphListener {

  private static final Logger LOG = Logger.getLogger(StageEvents.class.getName());

  @Override
  public void onNewHead(FlowNode node) {
    if (node instanceof BlockStartNode start && isStage(start)) {
      Run<?, ?> run = run(node);
      if (run != null) {
        VarroaRuntime.core().events().stageStarted(RunEvents.runId(run).getRunId(), RunEvents.job(run), start.getId(),
            name(start), branch(start));
      }
    } else if (node instanceof BlockEndNode<?> end && isStage(end.getStartNode())) {
      Run<?, ?> run = run(node);
      if (run != null) {
        BlockStartNode start = end.getStartNode();
        long duration = TimingAction.getStartTime(end) - TimingAction.getStartTime(start);
        VarroaRuntime.core().events().stageEnded(RunEvents.runId(run).getRunId(), RunEvents.job(run), start.getId(),
            name(start), branch(start), status(end, start), Math.max(0, duration));
      }
    }
  }

  private static boolean isStage(BlockStartNode start) {
    return start.getAction(LabelAction.class) != null && start.getAction(ThreadNameAction.class) == null;
  }

  private static String name(BlockStartNode start) {
    return start.getAction(LabelAction.class).getDisplayName();
  }

  private static String branch(FlowNode node) {
    for (BlockStartNode block : node.getEnclosingBlocks()) {
      ThreadNameAction thread = block.getAction(ThreadNameAction.class);
      if (thread != null) {
        return thread.getThreadName();
      }
    }
    return "";
  }

  private static String status(BlockEndNode<?> end, BlockStartNode start) {
    ErrorAction error = end.getAction(ErrorAction.class);
    String errorResult = error == null ? null
        : error.getError() instanceof FlowInterruptedException interrupted ? interrupted.getResult().toString() : "FAILURE";
    WarningAction warning = start.getPersistentAction(WarningAction.class);
    TagsAction tags = start.getPersistentAction(TagsAction.class);
    return StageStatus.of(errorResult, warning == null ? null : warning.getResult().toString(),
        tags == null ? null : tags.getTagValue("STAGE_STATUS"));
  }

  private static Run<?, ?> run(FlowNode node) {
    try {
      Queue.Executable executable = node.getExecution().getOwner().getExecutable();
      return executable instanceof Run<?, ?> run ? run : null;
    } catch (IOException e) {
      LOG.log(Level.FINE, "event=stage_run_unknown node=" + node.getId(), e);
      return null;
    }
  }
}
