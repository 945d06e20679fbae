package dev.varroa.recorder;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.CellWake;
import dev.varroa.protocol.bus.v1.CellWakeResult;
import io.nats.client.Connection;
import io.nats.client.Message;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a cell wake to the operator of the cluster that hosts a team (seed 002: the core recorder sends each run action,
 * such as a cell wake, to the target cluster's operator over NATS), on varroa.clusters.&lt;cluster&gt;.cell-wake.
 */
public final class CellWakes {
  /** How long a wake waits for the operator: it reads two cached objects and writes one annotation. */
  public static final Duration ANSWER_WAIT = Duration.ofSeconds(5);
  private static final Logger LOG = LoggerFactory.getLogger(CellWakes.class);

  /** What became of a wake. */
  public enum Outcome {
    /** The cell was Hibernated and is waking now. */
    WOKEN,
    /** The cell is not Hibernated: nothing to wake. */
    NOT_PARKED,
    /** The operator refused: unknown team, team not placed, cell missing. */
    REFUSED,
    /** No operator of that cluster answered, or its answer was unreadable. */
    UNANSWERED
  }

  /** The operator's answer; cell and phaseBefore are empty when it did not find one. */
  public record Result(Outcome outcome, String cell, String phaseBefore, String message) {}

  private final Supplier<Connection> nats;
  private final Duration wait;

  /** @param nats the connection in use now (the recorder's) */
  public CellWakes(Supplier<Connection> nats, Duration wait) {
    this.nats = nats;
    this.wait = wait;
  }

  /** Asks the cluster's operator to wake the team's cell; never throws for a bus failure. */
  public Result wake(String cluster, String namespace, String team, String reason) {
    String subject = BusNames.clusterCellWake(cluster);
    byte[] request = CellWake.newBuilder().setNamespace(namespace).setTeam(team).setReason(reason).build()
        .toByteArray();
    CellWakeResult answer;
    try {
      Message reply = nats.get().request(subject, request).get(wait.toMillis(), TimeUnit.MILLISECONDS);
      answer = CellWakeResult.parseFrom(reply.getData());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return unanswered(cluster, namespace, team, "interrupted while asking cluster " + cluster + "'s operator");
    } catch (ExecutionException | CancellationException e) {
      // jnats fails the request at once when nobody subscribes (no responders)
      return unanswered(cluster, namespace, team, "no operator of cluster " + cluster + " answers " + subject
          + " (is the cluster registered and its operator running?)");
    } catch (TimeoutException e) {
      return unanswered(cluster, namespace, team, "cluster " + cluster + "'s operator did not answer within "
          + wait.toSeconds() + " s");
    } catch (InvalidProtocolBufferException e) {
      return unanswered(cluster, namespace, team, "cluster " + cluster + "'s operator answered unreadably: "
          + e.getMessage());
    }
    Outcome outcome = switch (answer.getOutcome()) {
      case "woken" -> Outcome.WOKEN;
      case "not-parked" -> Outcome.NOT_PARKED;
      case "refused" -> Outcome.REFUSED;
      default -> Outcome.UNANSWERED;
    };
    String message = outcome == Outcome.UNANSWERED && answer.getMessage().isEmpty()
        ? "cluster " + cluster + "'s operator answered outcome '" + answer.getOutcome() + "'" : answer.getMessage();
    LOG.info("event=cell_wake cluster={} team={}/{} cell={} phaseBefore={} outcome={} reason=\"{}\"", cluster,
        namespace, team, answer.getCell(), answer.getPhaseBefore(), outcome, reason);
    return new Result(outcome, answer.getCell(), answer.getPhaseBefore(), message);
  }

  private static Result unanswered(String cluster, String namespace, String team, String why) {
    LOG.warn("event=cell_wake_unanswered cluster={} team={}/{} reason=\"{}\"", cluster, namespace, team, why);
    return new Result(Outcome.UNANSWERED, "", "", why);
  }
}
