package dev.varroa.dashboard.clusters;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.bus.v1.ClusterPresence;
import io.nats.client.Connection;
import io.nats.client.Message;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * One list asked of every registered cluster's operator at once (brood operations, brood schedules), answered the way
 * the controllers list is: a cluster whose answer does not arrive in time is named with "list unavailable", one whose
 * answer cannot be read with the given reason, and neither contributes rows.
 */
public final class ClusterLists {

  /** Reads one cluster's answer; throws when it is not the expected message. */
  @FunctionalInterface
  public interface Reader<T> {
    T read(byte[] data) throws InvalidProtocolBufferException;
  }

  /** One cluster's answer, read. */
  public record Reply<T>(String cluster, T value) {}

  /** The answers that arrived and were read, in cluster order, and how every registered cluster answered. */
  public record Answers<T>(List<Reply<T>> replies, List<ClusterRoster.ClusterAnswer> clusters) {}

  /** The requests in flight; {@link #collect} waits for them. */
  public static final class Asked<T> {
    private final List<String> names;
    private final List<CompletableFuture<Message>> replies;
    private final Reader<T> reader;
    private final String unreadable;
    private final Duration wait;
    private final long deadline;

    private Asked(List<String> names, List<CompletableFuture<Message>> replies, Reader<T> reader, String unreadable,
        Duration wait) {
      this.names = names;
      this.replies = replies;
      this.reader = reader;
      this.unreadable = unreadable;
      this.wait = wait;
      this.deadline = System.nanoTime() + wait.toNanos();
    }

    /** Waits at most until {@code wait} after the requests were sent, for all clusters together. */
    public Answers<T> collect() throws InterruptedException {
      List<Reply<T>> read = new ArrayList<>();
      List<ClusterRoster.ClusterAnswer> answers = new ArrayList<>();
      for (int i = 0; i < names.size(); i++) {
        String name = names.get(i);
        try {
          Message reply = replies.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
          read.add(new Reply<>(name, reader.read(reply.getData())));
          answers.add(new ClusterRoster.ClusterAnswer(name, true, "", ""));
        } catch (TimeoutException | ExecutionException | java.util.concurrent.CancellationException e) {
          answers.add(new ClusterRoster.ClusterAnswer(name, false, ClusterRoster.LIST_UNAVAILABLE, "no answer within "
              + wait.toMillis() + " ms" + (e.getCause() == null ? "" : ": " + e.getCause().getMessage())));
        } catch (InvalidProtocolBufferException e) {
          answers.add(new ClusterRoster.ClusterAnswer(name, false, unreadable, e.getMessage()));
        }
      }
      return new Answers<>(read, answers);
    }
  }

  private ClusterLists() {
  }

  /**
   * Sends the request to every cluster's subject now; the caller may do other work before {@link Asked#collect}.
   *
   * @param unreadable the reason a cluster whose answer cannot be read is named with
   */
  public static <T> Asked<T> ask(Connection nats, List<ClusterPresence> clusters, Function<String, String> subject,
      byte[] request, Reader<T> reader, String unreadable, Duration wait) {
    List<String> names = new ArrayList<>();
    List<CompletableFuture<Message>> replies = new ArrayList<>();
    for (ClusterPresence cluster : clusters) {
      names.add(cluster.getName());
      replies.add(nats.requestWithTimeout(subject.apply(cluster.getName()), request, wait));
    }
    return new Asked<>(names, replies, reader, unreadable, wait);
  }
}
