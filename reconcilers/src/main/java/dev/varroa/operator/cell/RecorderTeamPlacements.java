package dev.varroa.operator.cell;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.TeamPlacement;
import dev.varroa.protocol.bus.v1.TeamPlacements;
import dev.varroa.protocol.bus.v1.TeamPlacementsRecorded;
import io.nats.client.Connection;
import io.nats.client.Message;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Sends one CellPool's whole placement to the core's record store (varroa.recorder.team-placements, request/reply):
 * the recorder replaces the pool's rows of team_placements with it. Seed 002: a member runs no recorder, so every
 * cluster's operator sends here.
 */
public final class RecorderTeamPlacements implements PlacementRecord {
  /** How long a send waits for the recorder: it answers after one short transaction. */
  public static final Duration ANSWER_WAIT = Duration.ofSeconds(3);

  private final Supplier<Connection> nats;
  private final String cluster;
  private final Duration wait;

  /** @param nats the connection in use now (the control channel's) */
  public RecorderTeamPlacements(Supplier<Connection> nats, String cluster, Duration wait) {
    this.nats = nats;
    this.cluster = cluster;
    this.wait = wait;
  }

  /** With {@link #ANSWER_WAIT}, on a connection that does not change. */
  public RecorderTeamPlacements(Connection nats, String cluster) {
    this(() -> nats, cluster, ANSWER_WAIT);
  }

  /**
   * Records the pool's placements, replacing what the record store held for it (an empty list: no team placed).
   * Empty when recorded, else why not; never throws for a bus failure.
   */
  @Override
  public Optional<String> record(String namespace, String pool, List<Entry> placements) {
    TeamPlacements.Builder snapshot = TeamPlacements.newBuilder().setCluster(cluster).setNamespace(namespace)
        .setPool(pool);
    for (Entry entry : placements) {
      snapshot.addPlacements(TeamPlacement.newBuilder().setTeam(entry.team()).setCell(entry.cell())
          .setSinceEpochMillis(entry.since() == null ? 0 : entry.since().toEpochMilli()));
    }
    TeamPlacementsRecorded answer;
    try {
      Connection connection = nats.get();
      if (connection == null) {
        return Optional.of("no NATS connection: the placement of CellPool " + namespace + "/" + pool
            + " is sent again once the operator is connected");
      }
      Message reply = connection.request(BusNames.TEAM_PLACEMENTS_SUBJECT, snapshot.build().toByteArray())
          .get(wait.toMillis(), TimeUnit.MILLISECONDS);
      answer = TeamPlacementsRecorded.parseFrom(reply.getData());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted while sending the placement of CellPool " + namespace + "/" + pool);
    } catch (ExecutionException | CancellationException e) {
      // jnats fails the request at once when no recorder subscribes (no responders)
      return Optional.of("no recorder answers " + BusNames.TEAM_PLACEMENTS_SUBJECT
          + " (is recordStore.enabled set on the core?)");
    } catch (TimeoutException e) {
      return Optional.of("the recorder did not answer within " + wait.toSeconds() + " s");
    } catch (InvalidProtocolBufferException e) {
      return Optional.of("the recorder's answer is unreadable: " + e.getMessage());
    } catch (RuntimeException e) {
      // a closed or replaced connection refuses the request outright
      return Optional.of("the placement of CellPool " + namespace + "/" + pool + " could not be sent: "
          + e.getMessage());
    }
    if (!answer.getRecorded()) {
      return Optional.of(answer.getError().isEmpty() ? "the recorder did not record the placement" : answer.getError());
    }
    return Optional.empty();
  }
}
