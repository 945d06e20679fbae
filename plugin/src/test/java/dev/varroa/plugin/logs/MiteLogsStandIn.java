package dev.varroa.plugin.logs;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.varroa.protocol.builds.v1.LogChunk;
import dev.varroa.protocol.builds.v1.LogChunkAck;
import dev.varroa.protocol.builds.v1.LogChunkBatch;
import dev.varroa.protocol.builds.v1.LogChunkBatchAck;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * Plays the mite's {@code POST /v1/logs} with the gateway behind it, on a free 127.0.0.1 port: bearer token checked,
 * binary LogChunkBatch in, binary LogChunkBatchAck out, each chunk answered by the rules of issue 12's LOGS.md
 * (S = bytes held from 0; offset > S: GAP; end <= S and not a pending last: DUPLICATE; else the new bytes land at S:
 * STORED; a last chunk makes the log complete; past a complete log's end: GAP). The test can make a run's store
 * UNAVAILABLE, the whole store NOT_STORED, or the mite answer a bare HTTP status. The real mite lives in mite/.
 */
final class MiteLogsStandIn implements AutoCloseable {

  private final HttpServer server;
  private final String token;
  private final Map<String, ByteArrayOutputStream> stored = new ConcurrentHashMap<>();
  private final Set<String> complete = ConcurrentHashMap.newKeySet();
  private final Set<String> unavailable = ConcurrentHashMap.newKeySet();
  private final List<LogChunkBatch> batches = new CopyOnWriteArrayList<>();
  private final List<String> contentTypes = new CopyOnWriteArrayList<>();
  private volatile boolean notStored;
  private volatile int status = 200;

  private MiteLogsStandIn(String token) throws IOException {
    this.token = token;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/v1/logs", this::handle);
  }

  static MiteLogsStandIn start(Path tokenFile, String token) throws IOException {
    Files.writeString(tokenFile, token + "\n");
    MiteLogsStandIn mite = new MiteLogsStandIn(token);
    mite.server.start();
    return mite;
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  List<LogChunkBatch> batches() {
    return List.copyOf(batches);
  }

  List<LogChunk> chunks() {
    return batches.stream().flatMap(b -> b.getChunksList().stream()).toList();
  }

  List<String> contentTypes() {
    return List.copyOf(contentTypes);
  }

  byte[] stored(String runId) {
    ByteArrayOutputStream bytes = stored.get(runId);
    return bytes == null ? new byte[0] : bytes.toByteArray();
  }

  boolean complete(String runId) {
    return complete.contains(runId);
  }

  /** The store forgets everything past {@code length} of a run (a restored backup, say). */
  synchronized void truncate(String runId, int length) {
    byte[] kept = stored(runId);
    ByteArrayOutputStream shorter = new ByteArrayOutputStream();
    shorter.write(kept, 0, Math.min(length, kept.length));
    stored.put(runId, shorter);
  }

  void unavailable(String runId, boolean on) {
    if (on) {
      unavailable.add(runId);
    } else {
      unavailable.remove(runId);
    }
  }

  void notStored(boolean on) {
    notStored = on;
  }

  /** Answer every request with this bare status (503, 504, 500...); 200 answers with acks again. */
  void answerStatus(int httpStatus) {
    status = httpStatus;
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String authorization = exchange.getRequestHeaders().getFirst("Authorization");
      if (!("Bearer " + token).equals(authorization)) {
        respond(exchange, 401, "text/plain", "wrong token".getBytes(StandardCharsets.UTF_8));
        return;
      }
      byte[] body = exchange.getRequestBody().readAllBytes();
      if (status != 200) {
        respond(exchange, status, "application/json",
            "{\"error\":\"the mite is not connected to a gateway\"}".getBytes(StandardCharsets.UTF_8));
        return;
      }
      contentTypes.add(exchange.getRequestHeaders().getFirst("Content-Type"));
      LogChunkBatch batch = LogChunkBatch.parseFrom(body);
      batches.add(batch);
      LogChunkBatchAck.Builder acks = LogChunkBatchAck.newBuilder();
      for (LogChunk chunk : batch.getChunksList()) {
        acks.addAcks(answer(chunk));
      }
      respond(exchange, 200, "application/x-protobuf", acks.build().toByteArray());
    }
  }

  private synchronized LogChunkAck answer(LogChunk chunk) {
    String run = chunk.getRunId();
    LogChunkAck.Builder ack = LogChunkAck.newBuilder().setRunId(run).setOffset(chunk.getOffset());
    if (notStored) {
      return ack.setResult(LogChunkAck.Result.NOT_STORED).setMessage("no blob store is configured").build();
    }
    ByteArrayOutputStream bytes = stored.computeIfAbsent(run, r -> new ByteArrayOutputStream());
    long held = bytes.size();
    ack.setStoredThrough(held).setComplete(complete.contains(run));
    if (unavailable.contains(run)) {
      return ack.setResult(LogChunkAck.Result.UNAVAILABLE).setMessage("the store refused the write").build();
    }
    long end = chunk.getOffset() + chunk.getData().size();
    if (chunk.getOffset() > held || complete.contains(run) && end > held) {
      return ack.setResult(LogChunkAck.Result.GAP).build();
    }
    if (end <= held && !(chunk.getLast() && !complete.contains(run))) {
      return ack.setResult(LogChunkAck.Result.DUPLICATE).build();
    }
    byte[] data = chunk.getData().toByteArray();
    int skip = (int) (held - chunk.getOffset());
    bytes.write(data, skip, data.length - skip);
    if (chunk.getLast()) {
      complete.add(run);
    }
    return ack.setResult(LogChunkAck.Result.STORED).setStoredThrough(bytes.size())
        .setComplete(complete.contains(run)).build();
  }

  private static void respond(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
