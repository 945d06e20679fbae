package dev.varroa.plugin.logs;

import com.google.protobuf.ByteString;
import dev.varroa.plugin.claims.ClaimRetrySchedule;
import dev.varroa.plugin.loopback.LogsOutcome;
import dev.varroa.protocol.builds.v1.LogChunk;
import dev.varroa.protocol.builds.v1.LogChunkAck;
import dev.varroa.protocol.builds.v1.LogChunkBatch;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * Sends each run's unshipped bytes to {@code POST /v1/logs} and follows the gateway's acks: the next chunk of a run
 * starts at the ack's {@code stored_through} (so a GAP rewinds), NOT_STORED drops the run's copy, a complete log's
 * copy is deleted. UNAVAILABLE waits for that run alone; no answer at all (no mite, a timeout, a 5xx) waits for
 * every run. Both waits follow {@link ClaimRetrySchedule}: 1 s, 2 s, 5 s, 10 s, then every 30 s.
 */
public final class LogShipper implements AutoCloseable {

  /** Issue 12: a chunk carries at most 256 KiB, a batch at most 1 MiB. */
  public static final int MAX_CHUNK_BYTES = 256 * 1024;
  public static final int MAX_BATCH_BYTES = 1024 * 1024;
  /** New bytes wait this long for more before they go, so a chatty build is not one POST a line. */
  static final Duration LINGER = Duration.ofMillis(200);
  private static final Duration IDLE_WAIT = Duration.ofSeconds(1);
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(2);
  private static final Logger LOG = Logger.getLogger(LogShipper.class.getName());

  /** What one round did. */
  public enum Round { NOTHING_DUE, ANSWERED, FAILED }

  private final LogCopies copies;
  private final Function<LogChunkBatch, LogsOutcome> send;
  private final Clock clock;
  private final Thread thread;
  private final Map<String, Wait> runWaits = new HashMap<>();
  private Wait everyRun = Wait.NONE;
  private final Object closing = new Object();
  private volatile boolean running = true;
  private String lastProblem;

  private record Wait(int failures, Instant until) {
    static final Wait NONE = new Wait(0, Instant.EPOCH);

    Wait next(Instant now) {
      return new Wait(failures + 1, now.plus(ClaimRetrySchedule.delay(failures, 0)));
    }
  }

  public LogShipper(LogCopies copies, Function<LogChunkBatch, LogsOutcome> send, Clock clock) {
    this.copies = copies;
    this.send = send;
    this.clock = clock;
    this.thread = new Thread(this::loop, "varroa-log-shipper");
    thread.setDaemon(true);
  }

  public LogShipper start() {
    thread.start();
    return this;
  }

  /** Sends one batch of what is due now and applies its acks; the thread calls this, tests call it by hand. */
  public synchronized Round shipOnce() {
    Instant now = clock.instant();
    if (now.isBefore(everyRun.until())) {
      return Round.NOTHING_DUE;
    }
    List<LogChunk> chunks = new ArrayList<>();
    Map<String, LogCopy> byRun = new LinkedHashMap<>();
    try {
      collect(now, chunks, byRun);
    } catch (IOException e) {
      problem("read_failed", e.getMessage());
      everyRun = everyRun.next(now);
      return Round.FAILED;
    }
    if (chunks.isEmpty()) {
      return Round.NOTHING_DUE;
    }
    LogsOutcome outcome = send.apply(LogChunkBatch.newBuilder().addAllChunks(chunks).build());
    Instant answeredAt = clock.instant();
    if (outcome instanceof LogsOutcome.Failed failed) {
      everyRun = everyRun.next(answeredAt);
      problem("send_failed", failed.reason());
      return Round.FAILED;
    }
    everyRun = Wait.NONE;
    List<LogChunkAck> acks = ((LogsOutcome.Answered) outcome).ack().getAcksList();
    Map<String, Boolean> unavailable = new HashMap<>();
    for (int i = 0; i < chunks.size(); i++) {
      LogChunk chunk = chunks.get(i);
      LogCopy copy = byRun.get(chunk.getRunId());
      LogChunkAck ack = i < acks.size() ? acks.get(i) : null;
      if (ack == null || !ack.getRunId().equals(chunk.getRunId())) {
        unavailable.put(chunk.getRunId(), true);
        continue;
      }
      apply(copy, ack, unavailable);
    }
    for (LogCopy copy : byRun.values()) {
      if (unavailable.containsKey(copy.runId())) {
        runWaits.put(copy.runId(), runWaits.getOrDefault(copy.runId(), Wait.NONE).next(answeredAt));
      } else {
        runWaits.remove(copy.runId());
      }
    }
    if (unavailable.isEmpty()) {
      recovered();
    }
    return Round.ANSWERED;
  }

  private void collect(Instant now, List<LogChunk> chunks, Map<String, LogCopy> byRun) throws IOException {
    int room = MAX_BATCH_BYTES;
    for (LogCopy copy : copies.withWork()) {
      Wait wait = runWaits.get(copy.runId());
      if (wait != null && now.isBefore(wait.until())) {
        continue;
      }
      copy.force();
      long from = copy.shipped();
      long length = copy.length();
      boolean finished = copy.finished();
      boolean added = false;
      while (from < length && room > 0) {
        byte[] data = copy.read(from, Math.min(MAX_CHUNK_BYTES, room));
        if (data.length == 0) {
          break;
        }
        boolean last = finished && from + data.length == length;
        chunks.add(chunk(copy, from, data, last));
        from += data.length;
        room -= data.length;
        added = true;
      }
      // a finished run whose bytes all went already still owes the store its last chunk
      if (finished && from >= length && !added) {
        chunks.add(chunk(copy, from, new byte[0], true));
        added = true;
      }
      if (added) {
        byRun.put(copy.runId(), copy);
      }
      if (room <= 0) {
        return;
      }
    }
  }

  private LogChunk chunk(LogCopy copy, long offset, byte[] data, boolean last) {
    return LogChunk.newBuilder().setRunId(copy.runId()).setJob(copy.job()).setOffset(offset)
        .setData(ByteString.copyFrom(data)).setLast(last).setEmittedAtEpochMillis(clock.millis()).build();
  }

  private void apply(LogCopy copy, LogChunkAck ack, Map<String, Boolean> unavailable) {
    if (copy.deleted() || copy.dropped()) {
      return;
    }
    switch (ack.getResult()) {
      case STORED, DUPLICATE, GAP -> {
        copy.shippedThrough(ack.getStoredThrough());
        if (ack.getComplete() && copy.finished()) {
          copies.remove(copy);
          LOG.fine(() -> "event=log_shipped run_id=" + copy.runId() + " bytes=" + ack.getStoredThrough());
        }
      }
      case NOT_STORED -> {
        LOG.info("event=log_not_stored run_id=" + copy.runId() + " job=\"" + copy.job() + "\" message=\""
            + (ack.getMessage().isEmpty() ? "no blob store keeps console logs here" : ack.getMessage())
            + "; this run's copy is dropped\"");
        if (copy.finished()) {
          copies.remove(copy);
        } else {
          copy.drop();
        }
      }
      default -> {
        unavailable.put(copy.runId(), true);
        problem("store_unavailable", ack.getMessage());
      }
    }
  }

  private void loop() {
    while (running) {
      try {
        long seen = copies.workVersion();
        Round round = shipOnce();
        if (round == Round.ANSWERED) {
          continue;
        }
        // the next due time is reckoned on the injected clock; waiting at most a second keeps a stepped clock live
        copies.awaitWork(seen, IDLE_WAIT.toMillis());
        if (running && copies.workVersion() != seen) {
          linger();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        if (!running) {
          return;
        }
        problem("ship_failed", e.toString());
        try {
          copies.awaitWork(copies.workVersion(), IDLE_WAIT.toMillis());
        } catch (InterruptedException interrupted) {
          return;
        }
      }
    }
  }

  private void linger() throws InterruptedException {
    synchronized (closing) {
      if (running) {
        closing.wait(LINGER.toMillis());
      }
    }
  }

  // one line when the kind of trouble changes, not one a retry
  private void problem(String kind, String reason) {
    String key = kind + reason;
    if (!key.equals(lastProblem)) {
      lastProblem = key;
      LOG.warning("event=varroa_logs_" + kind + " runs=" + copies.status().runs() + " reason=\"" + reason + "\"");
    }
  }

  private void recovered() {
    if (lastProblem != null) {
      lastProblem = null;
      LOG.info("event=varroa_logs_flowing message=\"the gateway stores console log chunks again\"");
    }
  }

  /** When the run may be sent again after UNAVAILABLE; {@link Instant#EPOCH} when it is not waiting. */
  public synchronized Instant runWaitUntil(String runId) {
    return runWaits.getOrDefault(runId, Wait.NONE).until();
  }

  /** When anything may be sent again after a failed request. */
  public synchronized Instant waitUntil() {
    return everyRun.until();
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    synchronized (closing) {
      closing.notifyAll();
    }
    copies.signal();
    thread.join(CLOSE_WAIT.toMillis());
  }
}
