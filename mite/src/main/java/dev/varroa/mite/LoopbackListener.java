package dev.varroa.mite;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import com.sun.net.httpserver.HttpExchange;
import dev.varroa.protocol.http.LimitedHttpServer;
import dev.varroa.protocol.http.ListenerLimits;
import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.ClaimDecision;
import dev.varroa.protocol.builds.v1.ClaimRequest;
import dev.varroa.protocol.builds.v1.EventBatch;
import dev.varroa.protocol.builds.v1.EventBatchAck;
import dev.varroa.protocol.builds.v1.EventKey;
import dev.varroa.protocol.builds.v1.LogChunk;
import dev.varroa.protocol.builds.v1.LogChunkBatch;
import dev.varroa.protocol.builds.v1.LogChunkBatchAck;
import dev.varroa.protocol.builds.v1.PipelineCallAnswer;
import dev.varroa.protocol.builds.v1.PipelineCallRequest;
import dev.varroa.protocol.builds.v1.PipelineCallRequestOrBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Jenkins plugin's way into the mite, on 127.0.0.1 only: {@code POST /v1/events}, {@code POST /v1/claim},
 * {@code POST /v1/logs}, the cross-tenant step's {@code POST /v1/pipeline-calls} and
 * {@code GET /v1/pipeline-calls/<call id>}, and the preStop hook's {@code POST /drain}, each behind the loopback
 * token. Each route has
 * its own threads, so minutes-long drains, claims waiting for the ledger, events waiting for room and log chunks
 * waiting for the blob store never hold up each other.
 */
final class LoopbackListener implements AutoCloseable {

  /** Loopback only: nothing outside the pod may post events, claim builds or drain Jenkins. */
  static final String HOST = "127.0.0.1";
  static final String EVENTS_PATH = "/v1/events";
  static final String CLAIM_PATH = "/v1/claim";
  static final String DRAIN_PATH = "/drain";
  static final String LOGS_PATH = "/v1/logs";
  static final String PIPELINE_CALLS_PATH = "/v1/pipeline-calls";
  static final String PROTOBUF_TYPE = "application/x-protobuf";
  /** Issue 12: the plugin's chunks carry at most 256 KiB each, a batch at most 1 MiB of log bytes. */
  static final int MAX_LOG_CHUNK_BYTES = 256 * 1024;
  static final int MAX_LOG_BATCH_BYTES = 1024 * 1024;
  /** DATAPLANE.md: how long /v1/events waits for the gateway's acknowledgement before it answers. */
  static final Duration ACK_WAIT = Duration.ofSeconds(2);
  /** DATAPLANE.md: how long /v1/events waits for room at the retention cap before it answers 503. */
  static final Duration ROOM_WAIT = Duration.ofSeconds(5);
  /** A body bigger than this is no batch the plugin sends, and would not fit the mite's small heap: 413. */
  static final int MAX_BODY_BYTES = 4 * 1024 * 1024;
  static final int EVENT_THREADS = 4;
  static final int CLAIM_THREADS = 8;
  static final int DRAIN_THREADS = 2;
  static final int LOG_THREADS = 4;
  static final int PIPELINE_CALL_THREADS = 4;
  /**
   * Reading a request (line, headers, routing) holds one of the dispatch threads; a client that stops sending is cut
   * off after the header time, and a body that stops or trickles after the body times, so builds that reach
   * 127.0.0.1 cannot stall the plugin's events, claims or the drain.
   */
  static final ListenerLimits LIMITS = ListenerLimits.DELIVERIES.withBodyTime(Duration.ofSeconds(10),
      Duration.ofSeconds(60));

  private static final Logger LOG = LoggerFactory.getLogger(LoopbackListener.class);
  private static final String JSON_TYPE = "application/json";
  private static final JsonFormat.Parser PARSER = JsonFormat.parser().ignoringUnknownFields();
  private static final JsonFormat.Printer PRINTER = JsonFormat.printer()
      .alwaysPrintFieldsWithNoPresence().omittingInsignificantWhitespace();

  private final LoopbackToken token;
  private final EventRetention retention;
  private final ClaimRelay claims;
  private final LogAppendRelay logs;
  private final PipelineCallRelay calls;
  private final BuildDrain drain;
  private final Clock clock;
  // routing is quick; the routes' work runs on their own pools
  private final LimitedHttpServer server;
  private final ExecutorService eventThreads = pool(EVENT_THREADS, "mite-loopback-events");
  private final ExecutorService claimThreads = pool(CLAIM_THREADS, "mite-loopback-claims");
  private final ExecutorService drainThreads = pool(DRAIN_THREADS, "mite-loopback-drain");
  private final ExecutorService logThreads = pool(LOG_THREADS, "mite-loopback-logs");
  private final ExecutorService callThreads = pool(PIPELINE_CALL_THREADS, "mite-loopback-pipeline-calls");

  @FunctionalInterface
  private interface Route {
    void serve(HttpExchange exchange) throws IOException, InterruptedException;
  }

  /** Opens the listener; the token must already be on disk, so no request can come before it. */
  LoopbackListener(int port, LoopbackToken token, EventRetention retention, ClaimRelay claims, LogAppendRelay logs,
      PipelineCallRelay calls, BuildDrain drain, Clock clock) throws IOException {
    this.token = token;
    this.retention = retention;
    this.claims = claims;
    this.logs = logs;
    this.calls = calls;
    this.drain = drain;
    this.clock = clock;
    server = LimitedHttpServer.bind("mite-loopback", new InetSocketAddress(InetAddress.getByName(HOST), port), LIMITS);
    server.route("/", this::dispatch);
    server.start();
  }

  int port() {
    return server.port();
  }

  private void dispatch(HttpExchange exchange) {
    try {
      if (!token.matches(bearer(exchange))) {
        exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer");
        error(exchange, 401, "missing or wrong bearer token: send Authorization: Bearer <the token in "
            + LoopbackToken.FILE_NAME + ">, re-read the file after a 401");
        exchange.close();
        return;
      }
      String path = exchange.getRequestURI().getPath();
      switch (path) {
        case EVENTS_PATH -> postOnly(exchange, eventThreads, this::events);
        case CLAIM_PATH -> postOnly(exchange, claimThreads, this::claim);
        case DRAIN_PATH -> postOnly(exchange, drainThreads, this::drain);
        case LOGS_PATH -> postOnly(exchange, logThreads, this::logs);
        case PIPELINE_CALLS_PATH -> postOnly(exchange, callThreads, this::pipelineCall);
        default -> {
          if (path.startsWith(PIPELINE_CALLS_PATH + "/")) {
            only("GET", exchange, callThreads, this::pipelineCallStatus);
          } else {
            error(exchange, 404, "no such route: " + path);
            exchange.close();
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("event=loopback_request_failed error={}", e.getClass().getSimpleName());
      exchange.close();
    }
  }

  private void postOnly(HttpExchange exchange, ExecutorService threads, Route route) throws IOException {
    only("POST", exchange, threads, route);
  }

  private void only(String method, HttpExchange exchange, ExecutorService threads, Route route) throws IOException {
    if (!exchange.getRequestMethod().equals(method)) {
      exchange.getResponseHeaders().set("Allow", method);
      error(exchange, 405, exchange.getRequestMethod() + " is not allowed here: use " + method);
      exchange.close();
      return;
    }
    try {
      threads.execute(() -> {
        try (exchange) {
          route.serve(exchange);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
          LOG.warn("event=loopback_request_failed path={} error={}", exchange.getRequestURI().getPath(),
              e.getClass().getSimpleName());
        }
      });
    } catch (RejectedExecutionException closing) {
      error(exchange, 503, "the mite is stopping");
      exchange.close();
    }
  }

  private void events(HttpExchange exchange) throws IOException, InterruptedException {
    Instant roomDeadline = clock.instant().plus(ROOM_WAIT);
    // at the cap the body stays unread: the plugin's send blocks until room frees up or this answers 503
    if (!retention.awaitRoom(roomDeadline)) {
      atCap(exchange, 0);
      return;
    }
    EventBatch.Builder batch = EventBatch.newBuilder();
    try {
      String body = body(exchange);
      if (body == null) {
        error(exchange, 413, "the body is bigger than " + MAX_BODY_BYTES + " bytes: send smaller batches");
        return;
      }
      PARSER.merge(body, batch);
    } catch (InvalidProtocolBufferException e) {
      error(exchange, 400, "the body is not an EventBatch in JSON ({\"events\":[...]}): " + e.getMessage());
      return;
    }
    String invalid = invalid(batch.getEventsList());
    if (invalid != null) {
      error(exchange, 400, invalid);
      return;
    }
    EventRetention.Admission admission = retention.admit(batch.getEventsList(), roomDeadline);
    if (admission.held().isEmpty() && admission.refused() > 0) {
      atCap(exchange, admission.refused());
      return;
    }
    List<EventKey> acknowledged = retention.awaitAcknowledged(admission.held(), clock.instant().plus(ACK_WAIT));
    LOG.debug("event=events_received events={} added={} duplicates={} refused={} acknowledged={}",
        batch.getEventsCount(), admission.added(), admission.duplicates(), admission.refused(), acknowledged.size());
    json(exchange, 200, EventBatchAck.newBuilder().addAllAcknowledged(acknowledged)
        .setRetained(admission.held().size() - acknowledged.size()));
  }

  private void atCap(HttpExchange exchange, int refused) throws IOException {
    LOG.warn("event=events_refused reason=retention_full retained_bytes={} refused={} waited_s={}",
        retention.retainedBytes(), refused, ROOM_WAIT.toSeconds());
    exchange.getResponseHeaders().set("Retry-After", "1");
    error(exchange, 503, "the mite's event retention is full (VARROA_EVENT_RETAIN_BYTES) and no room freed up within "
        + ROOM_WAIT.toSeconds() + " s: the gateway has not acknowledged earlier events yet; send again later");
  }

  /** The first event without its identity, named by index and field; null when every event has one. */
  static String invalid(List<BuildEvent> events) {
    for (int i = 0; i < events.size(); i++) {
      BuildEvent event = events.get(i);
      if (event.getRunId().isBlank()) {
        return "events[" + i + "].runId is empty: every event needs its run's id";
      }
      if (event.getSequence() <= 0) {
        return "events[" + i + "].sequence must be > 0: number each run's events 1, 2, 3, ...";
      }
      if (event.getJob().isBlank()) {
        return "events[" + i + "].job is empty: every event needs its job's full name";
      }
    }
    return null;
  }

  private void claim(HttpExchange exchange) throws IOException, InterruptedException {
    ClaimRequest.Builder claim = ClaimRequest.newBuilder();
    try {
      String body = body(exchange);
      if (body == null) {
        json(exchange, 413, invalidClaim("the body is bigger than " + MAX_BODY_BYTES + " bytes"));
        return;
      }
      PARSER.merge(body, claim);
    } catch (InvalidProtocolBufferException e) {
      json(exchange, 400, invalidClaim("the body is not a ClaimRequest in JSON: " + e.getMessage()));
      return;
    }
    if (claim.getRunId().isBlank()) {
      json(exchange, 400, invalidClaim("runId is empty: a claim needs the queued run's id"));
      return;
    }
    if (claim.getJob().isBlank()) {
      json(exchange, 400, invalidClaim("job is empty: a claim needs the job's full name"));
      return;
    }
    ClaimRelay.Outcome outcome = claims.ask(claim.build());
    json(exchange, outcome.status(), outcome.decision());
  }

  private static ClaimDecision invalidClaim(String reason) {
    return ClaimDecision.newBuilder().setCode("INVALID_ARGUMENT").setReason(reason).build();
  }

  private void pipelineCall(HttpExchange exchange) throws IOException, InterruptedException {
    PipelineCallRequest.Builder call = PipelineCallRequest.newBuilder();
    try {
      String body = body(exchange);
      if (body == null) {
        json(exchange, 413, invalidCall("the body is bigger than " + MAX_BODY_BYTES + " bytes"));
        return;
      }
      PARSER.merge(body, call);
    } catch (InvalidProtocolBufferException e) {
      json(exchange, 400, invalidCall("the body is not a PipelineCallRequest in JSON: " + e.getMessage()));
      return;
    }
    String invalid = invalid(call);
    if (invalid != null) {
      json(exchange, 400, invalidCall(invalid));
      return;
    }
    PipelineCallRelay.Outcome outcome = calls.ask(call.build(), false);
    json(exchange, outcome.status(), outcome.answer());
  }

  private void pipelineCallStatus(HttpExchange exchange) throws IOException, InterruptedException {
    exchange.getRequestBody().close();
    String callId = exchange.getRequestURI().getPath().substring(PIPELINE_CALLS_PATH.length() + 1);
    if (!isUuid(callId)) {
      json(exchange, 400, invalidCall("the call id in the path \"" + callId + "\" is not a UUID: ask GET "
          + PIPELINE_CALLS_PATH + "/<the callId the POST sent>"));
      return;
    }
    PipelineCallRelay.Outcome outcome = calls.ask(PipelineCallRequest.newBuilder().setCallId(callId).build(), true);
    json(exchange, outcome.status(), outcome.answer());
  }

  /** The first missing or malformed field of a call, named with its fix; null when the call can travel. */
  static String invalid(PipelineCallRequestOrBuilder call) {
    if (!isUuid(call.getCallId())) {
      return "callId \"" + call.getCallId() + "\" is not a UUID: choose one random UUID per call and send it again"
          + " when asking again";
    }
    if (call.getJob().isBlank()) {
      return "job is empty: a call needs the calling job's full name (its folder names the calling Team)";
    }
    if (call.getTeam().isBlank()) {
      return "team is empty: name the called Team, \"name\" or \"namespace/name\"";
    }
    if (call.getPipeline().isBlank()) {
      return "pipeline is empty: name one of the called Team's spec.pipelines";
    }
    return null;
  }

  private static boolean isUuid(String text) {
    try {
      return text.length() == 36 && UUID.fromString(text).toString().equalsIgnoreCase(text);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static PipelineCallAnswer invalidCall(String message) {
    return PipelineCallAnswer.newBuilder().setCode("INVALID_ARGUMENT").setMessage(message).build();
  }

  private void logs(HttpExchange exchange) throws IOException, InterruptedException {
    String type = mediaType(exchange.getRequestHeaders().getFirst("Content-Type"));
    boolean binary = PROTOBUF_TYPE.equals(type);
    if (!binary && type != null && !JSON_TYPE.equals(type)) {
      exchange.getRequestBody().close();
      error(exchange, 415, "Content-Type " + type + " is not accepted here: send a LogChunkBatch as " + PROTOBUF_TYPE
          + " (binary protobuf) or " + JSON_TYPE);
      return;
    }
    LogChunkBatch.Builder batch = LogChunkBatch.newBuilder();
    byte[] body = bytes(exchange);
    if (body == null) {
      error(exchange, 413, "the body is bigger than " + MAX_BODY_BYTES + " bytes: send at most "
          + MAX_LOG_BATCH_BYTES + " bytes of log a batch");
      return;
    }
    try {
      if (binary) {
        batch.mergeFrom(body);
      } else {
        PARSER.merge(new String(body, StandardCharsets.UTF_8), batch);
      }
    } catch (InvalidProtocolBufferException e) {
      error(exchange, 400, "the body is not a LogChunkBatch in " + (binary ? "binary protobuf" : "JSON")
          + ": " + e.getMessage());
      return;
    }
    LogAppendRelay.Outcome outcome = invalidLogs(batch.getChunksList());
    if (outcome == null) {
      outcome = batch.getChunksCount() == 0
          ? LogAppendRelay.Outcome.answered(LogChunkBatchAck.getDefaultInstance())
          : logs.append(batch.build());
    }
    if (outcome.status() != 200) {
      if (outcome.status() == 503) {
        exchange.getResponseHeaders().set("Retry-After", "1");
      }
      error(exchange, outcome.status(), outcome.error());
    } else if (binary) {
      byte[] ack = outcome.ack().toByteArray();
      exchange.getResponseHeaders().set("Content-Type", PROTOBUF_TYPE);
      exchange.sendResponseHeaders(200, ack.length == 0 ? -1 : ack.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(ack);
      }
    } else {
      json(exchange, 200, outcome.ack());
    }
  }

  /** The refusal of the first chunk without its run or past the size limits, named by index; null when fine. */
  static LogAppendRelay.Outcome invalidLogs(List<LogChunk> chunks) {
    long total = 0;
    for (int i = 0; i < chunks.size(); i++) {
      LogChunk chunk = chunks.get(i);
      if (chunk.getRunId().isBlank()) {
        return LogAppendRelay.Outcome.failed(400, "chunks[" + i + "].runId is empty: every chunk needs its run's id");
      }
      if (chunk.getData().size() > MAX_LOG_CHUNK_BYTES) {
        return LogAppendRelay.Outcome.failed(413, "chunks[" + i + "] carries " + chunk.getData().size()
            + " bytes: a chunk carries at most " + MAX_LOG_CHUNK_BYTES + ", split it");
      }
      total += chunk.getData().size();
    }
    if (total > MAX_LOG_BATCH_BYTES) {
      return LogAppendRelay.Outcome.failed(413, "the batch carries " + total + " bytes of log: a batch carries at"
          + " most " + MAX_LOG_BATCH_BYTES + ", send fewer chunks a request");
    }
    return null;
  }

  private static String mediaType(String header) {
    if (header == null || header.isBlank()) {
      return null;
    }
    int semicolon = header.indexOf(';');
    return (semicolon < 0 ? header : header.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
  }

  private void drain(HttpExchange exchange) throws IOException {
    exchange.getRequestBody().close();
    try {
      answer(exchange, 200, drain.drain().json());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      error(exchange, 503, "the mite is stopping");
    }
  }

  /** The body as text; null when it is bigger than {@link #MAX_BODY_BYTES}. */
  private static String body(HttpExchange exchange) throws IOException {
    byte[] bytes = bytes(exchange);
    return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
  }

  /** The body; null when it is bigger than {@link #MAX_BODY_BYTES}. */
  private static byte[] bytes(HttpExchange exchange) throws IOException {
    try (InputStream in = exchange.getRequestBody()) {
      byte[] bytes = in.readNBytes(MAX_BODY_BYTES + 1);
      return bytes.length > MAX_BODY_BYTES ? null : bytes;
    }
  }

  private static String bearer(HttpExchange exchange) {
    String header = exchange.getRequestHeaders().getFirst("Authorization");
    if (header == null) {
      return null;
    }
    String value = header.strip();
    return value.toLowerCase(Locale.ROOT).startsWith("bearer ") ? value.substring("bearer ".length()).strip() : null;
  }

  private static void json(HttpExchange exchange, int status, MessageOrBuilder message) throws IOException {
    answer(exchange, status, PRINTER.print(message));
  }

  private static void error(HttpExchange exchange, int status, String message) throws IOException {
    answer(exchange, status, "{\"error\":\"" + new String(JsonStringEncoder.getInstance().quoteAsString(message))
        + "\"}");
  }

  private static void answer(HttpExchange exchange, int status, String json) throws IOException {
    byte[] bytes = (json + "\n").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", JSON_TYPE);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  // idle threads go away after a minute: an idle mite keeps its small footprint
  private static ExecutorService pool(int threads, String name) {
    ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 1, TimeUnit.MINUTES,
        new LinkedBlockingQueue<>(), GatewayChannels.daemonThreads(name));
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  @Override
  public void close() {
    server.close();
    eventThreads.shutdownNow();
    claimThreads.shutdownNow();
    drainThreads.shutdownNow();
    logThreads.shutdownNow();
    callThreads.shutdownNow();
  }
}
