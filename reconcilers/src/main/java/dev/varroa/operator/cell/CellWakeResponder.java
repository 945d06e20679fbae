package dev.varroa.operator.cell;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerAnnotations;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.TeamStatus;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.CellWake;
import dev.varroa.protocol.bus.v1.CellWakeResult;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import java.time.Clock;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers varroa.clusters.&lt;cluster&gt;.cell-wake, which the core's recorder sends when a build is requested for a
 * team (seed 002): finds the cell hosting the Team (its status.cell) and, when that cell is Hibernated, sets
 * {@link ControllerAnnotations#WAKE} on it, as a person or a brood wake step would. The hibernation code does the wake.
 */
public final class CellWakeResponder implements AutoCloseable {
  public static final String WOKEN = "woken";
  public static final String NOT_PARKED = "not-parked";
  public static final String REFUSED = "refused";
  private static final Logger LOG = LoggerFactory.getLogger(CellWakeResponder.class);
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private final KubernetesClient client;
  private final Connection nats;
  private final String cluster;
  private final Clock clock;
  private Dispatcher dispatcher;

  public CellWakeResponder(KubernetesClient client, Connection nats, String cluster, Clock clock) {
    this.client = client;
    this.nats = nats;
    this.cluster = cluster;
    this.clock = clock;
  }

  public synchronized void start() {
    dispatcher = nats.createDispatcher(this::answer);
    dispatcher.subscribe(BusNames.clusterCellWake(cluster), BusNames.OPERATOR_QUEUE_GROUP);
  }

  /** Wakes the team's cell when it is parked; what the recorder gets back. */
  public CellWakeResult wake(CellWake request) {
    String team = request.getNamespace() + "/" + request.getTeam();
    if (request.getNamespace().isEmpty() || request.getTeam().isEmpty()) {
      return refused("", "", "the cell wake names no Team (namespace '" + request.getNamespace() + "', team '"
          + request.getTeam() + "'): set both");
    }
    Team found = client.resources(Team.class).inNamespace(request.getNamespace()).withName(request.getTeam()).get();
    if (found == null) {
      return refused("", "", "unknown team: no Team " + team + " in cluster " + cluster);
    }
    TeamStatus status = found.getStatus();
    if (status == null || status.cell == null || status.cell.isEmpty()) {
      String why = status == null || status.message == null ? "" : " (" + status.message + ")";
      return refused("", "", "not placed: Team " + team + " has no cell yet" + why);
    }
    // the cell is in its pool's namespace, which may not be the Team's
    String cellNamespace = status.cellNamespace == null || status.cellNamespace.isEmpty()
        ? dev.varroa.api.v1alpha1.TeamRef.poolNamespace(found) : status.cellNamespace;
    Controller cell = client.resources(Controller.class).inNamespace(cellNamespace).withName(status.cell)
        .get();
    if (cell == null) {
      return refused(status.cell, "", "Team " + team + " is placed on cell " + status.cell
          + ", but no Controller " + cellNamespace + "/" + status.cell + " exists");
    }
    ControllerStatus.Phase phase = cell.getStatus() == null ? null : cell.getStatus().phase;
    String phaseBefore = phase == null ? "" : phase.name();
    if (phase != ControllerStatus.Phase.Hibernated) {
      return CellWakeResult.newBuilder().setCell(status.cell).setPhaseBefore(phaseBefore).setOutcome(NOT_PARKED)
          .setMessage("cell " + cellNamespace + "/" + status.cell + " of Team " + team + " is "
              + (phase == null ? "without a phase yet" : phase.name()) + ", not Hibernated: nothing to wake")
          .build();
    }
    // any value the hibernation code has not acted on wakes the cell; the time is new for every wake
    String value = clock.instant().toString();
    try {
      client.resources(Controller.class).inNamespace(cellNamespace).withName(status.cell)
          .patch(PatchContext.of(PatchType.JSON_MERGE), JSON.asJson(Map.of("metadata", Map.of("annotations",
              Map.of(ControllerAnnotations.WAKE, value)))));
    } catch (KubernetesClientException e) {
      return refused(status.cell, phaseBefore, "cell " + cellNamespace + "/" + status.cell
          + " could not be annotated " + ControllerAnnotations.WAKE + ": " + e.getMessage());
    }
    LOG.info("event=cell_wake_requested cluster={} team={} cell={} value={} reason=\"{}\"", cluster, team,
        status.cell, value, request.getReason());
    return CellWakeResult.newBuilder().setCell(status.cell).setPhaseBefore(phaseBefore).setOutcome(WOKEN)
        .setMessage("cell " + cellNamespace + "/" + status.cell + " of Team " + team + " is waking ("
            + ControllerAnnotations.WAKE + "=" + value + ")").build();
  }

  private CellWakeResult refused(String cell, String phaseBefore, String message) {
    LOG.info("event=cell_wake_refused cluster={} reason=\"{}\"", cluster, message);
    return CellWakeResult.newBuilder().setCell(cell).setPhaseBefore(phaseBefore).setOutcome(REFUSED)
        .setMessage(message).build();
  }

  private void answer(Message request) {
    if (request.getReplyTo() == null) {
      return;
    }
    CellWakeResult result;
    try {
      result = wake(CellWake.parseFrom(request.getData()));
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      result = refused("", "", "the request is not a varroa.bus.v1.CellWake: " + e.getMessage());
    } catch (RuntimeException e) {
      LOG.warn("event=cell_wake_failed cluster={} error=\"{}\"", cluster, e.getMessage());
      result = refused("", "", "cluster " + cluster + " could not look up the team: " + e.getMessage());
    }
    nats.publish(request.getReplyTo(), result.toByteArray());
  }

  @Override
  public synchronized void close() {
    if (dispatcher != null) {
      nats.closeDispatcher(dispatcher);
      dispatcher = null;
    }
  }
}
