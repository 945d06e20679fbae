package dev.varroa.operator.cell;

import dev.varroa.api.v1alpha1.Team;
import dev.varroa.operator.actions.PipelineRunAction;
import dev.varroa.operator.hooks.PipelinePushes;
import dev.varroa.protocol.bus.v1.ActionRequest;
import dev.varroa.protocol.bus.v1.ActionResult;
import dev.varroa.protocol.bus.v1.CellWake;
import dev.varroa.protocol.bus.v1.CellWakeResult;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.UUID;

/**
 * A push that a Team's pipeline follows (spec.pipelines[].triggers.push) runs it as a run asked from the core would:
 * the cell is woken if parked ({@link CellWakeResponder}), then a RunJob is queued for its mite
 * ({@link PipelineRunAction}), which waits on JetStream until the cell's Jenkins answers.
 */
public final class PushedPipelineRuns implements PipelinePushes {
  /** Who asked, as the run's reason and the pipeline.requested activity name it. */
  public static final String REQUESTER = "push";

  private final KubernetesClient client;
  private final String cluster;
  private final CellWakeResponder wakes;
  private final PipelineRunAction runs;

  public PushedPipelineRuns(KubernetesClient client, String cluster, CellWakeResponder wakes, PipelineRunAction runs) {
    this.client = client;
    this.cluster = cluster;
    this.wakes = wakes;
    this.runs = runs;
  }

  @Override
  public List<Team> teams() {
    return client.resources(Team.class).inAnyNamespace().list().getItems();
  }

  @Override
  public String run(Team team, String pipeline, String why) {
    String namespace = team.getMetadata().getNamespace();
    String name = team.getMetadata().getName();
    CellWakeResult wake = wakes.wake(CellWake.newBuilder().setNamespace(namespace).setTeam(name)
        .setReason(why + ": runs " + pipeline).build());
    ActionRequest request = ActionRequest.newBuilder().setRequestId(UUID.randomUUID().toString())
        .setVerb(PipelineRunAction.VERB).setCluster(cluster).setNamespace(namespace).setName(name)
        .setPipeline(pipeline).setUser(REQUESTER).build();
    String problem = runs.problem(request);
    if (problem != null) {
      return "refused: " + problem + " (wake: " + wake.getOutcome() + ")";
    }
    ActionResult result = runs.act(request).build();
    return result.getOutcome() + ": " + result.getMessage() + " (wake: " + wake.getOutcome() + ")";
  }
}
