package dev.varroa.dashboard.clusters;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.ClusterPresence;
import dev.varroa.protocol.bus.v1.ControllerRow;
import dev.varroa.protocol.bus.v1.ControllerRows;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.KeyValue;
import io.nats.client.Message;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueOperation;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The registered clusters (varroa_clusters) and the controllers of all of them, asked of each cluster's operator over
 * NATS at once. A cluster whose list does not arrive in time, or that sends a row the BFF cannot read, is named
 * with the reason and contributes no rows: seed 002's "list unavailable" and "invalid controller row".
 */
public final class ClusterRoster {

  public static final String LIST_UNAVAILABLE = "list unavailable";
  public static final String INVALID_CONTROLLER_ROW = "invalid controller row";
  /** Seed 001's phases; an empty phase is a Controller the operator has not written a status for yet. */
  static final Set<String> PHASES = Set.of("", "Pending", "Provisioning", "Running", "Connected", "Stopped",
      "Hibernated", "Failed");

  private final Supplier<Connection> bus;

  public ClusterRoster(Connection nats) {
    this(() -> nats);
  }

  /** @param bus the connection in use now (a replaced connection is picked up at the next call) */
  public ClusterRoster(Supplier<Connection> bus) {
    this.bus = bus;
  }

  /** How one cluster answered: ok, or the reason its rows are missing (and, for the log, what happened). */
  public record ClusterAnswer(String name, boolean ok, String reason, String detail) {
  }

  /** A row with the cluster it came from. */
  public record ClusterRow(String cluster, ControllerRow row) {
  }

  /** Every readable row, in cluster, namespace, name order, and how each registered cluster answered. */
  public record ControllerList(List<ClusterRow> rows, List<ClusterAnswer> clusters) {
  }

  /** The clusters that are registered now (entries their operators keep fresh), by name. */
  public List<ClusterPresence> clusters() throws IOException, JetStreamApiException, InterruptedException {
    Connection nats = bus.get();
    // no operator has registered yet: the bucket does not exist
    if (!nats.keyValueManagement().getBucketNames().contains(BusNames.CLUSTERS_BUCKET)) {
      return List.of();
    }
    KeyValue bucket = nats.keyValue(BusNames.CLUSTERS_BUCKET);
    List<ClusterPresence> clusters = new ArrayList<>();
    // keys() reads the bucket's stream, and a put during the read can deliver a key twice (a known KV client race;
    // seen on the real node as every Controller listed twice): each key once
    for (String key : new java.util.LinkedHashSet<>(bucket.keys())) {
      KeyValueEntry entry = bucket.get(key);
      if (entry != null && entry.getOperation() == KeyValueOperation.PUT) {
        clusters.add(ClusterPresence.parseFrom(entry.getValue()));
      }
    }
    clusters.sort(Comparator.comparing(ClusterPresence::getName));
    return clusters;
  }

  /** Asks every registered cluster for its rows and waits at most {@code wait} for all of them together. */
  public ControllerList controllers(Duration wait) throws IOException, JetStreamApiException, InterruptedException {
    List<ClusterPresence> clusters = clusters();
    Connection nats = bus.get();
    List<CompletableFuture<Message>> asked = new ArrayList<>();
    for (ClusterPresence cluster : clusters) {
      asked.add(nats.requestWithTimeout(BusNames.clusterControllers(cluster.getName()), new byte[0], wait));
    }
    long deadline = System.nanoTime() + wait.toNanos();
    List<ClusterRow> rows = new ArrayList<>();
    List<ClusterAnswer> answers = new ArrayList<>();
    for (int i = 0; i < clusters.size(); i++) {
      String name = clusters.get(i).getName();
      Optional<ControllerRows> answer;
      String detail;
      try {
        Message reply = asked.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        answer = Optional.of(ControllerRows.parseFrom(reply.getData()));
        detail = "";
      } catch (TimeoutException | ExecutionException | java.util.concurrent.CancellationException e) {
        answers.add(new ClusterAnswer(name, false, LIST_UNAVAILABLE, "no answer within " + wait.toMillis() + " ms"
            + (e.getCause() == null ? "" : ": " + e.getCause().getMessage())));
        continue;
      } catch (InvalidProtocolBufferException e) {
        answers.add(new ClusterAnswer(name, false, INVALID_CONTROLLER_ROW, "not a ControllerRows: " + e.getMessage()));
        continue;
      }
      Optional<String> invalid = answer.get().getRowsList().stream().map(ClusterRoster::problem)
          .flatMap(Optional::stream).findFirst();
      if (invalid.isPresent()) {
        answers.add(new ClusterAnswer(name, false, INVALID_CONTROLLER_ROW, invalid.get()));
        continue;
      }
      answer.get().getRowsList().forEach(row -> rows.add(new ClusterRow(name, row)));
      answers.add(new ClusterAnswer(name, true, "", detail));
    }
    rows.sort(Comparator.comparing(ClusterRow::cluster).thenComparing(r -> r.row().getNamespace())
        .thenComparing(r -> r.row().getName()));
    return new ControllerList(rows, answers);
  }

  /** What makes a row unreadable: no namespace or name, or a phase the API does not have. */
  static Optional<String> problem(ControllerRow row) {
    if (row.getNamespace().isBlank() || row.getName().isBlank()) {
      return Optional.of("a row without namespace or name");
    }
    if (!PHASES.contains(row.getPhase())) {
      return Optional.of(row.getNamespace() + "/" + row.getName() + " has an unknown phase '" + row.getPhase() + "'");
    }
    return Optional.empty();
  }
}
