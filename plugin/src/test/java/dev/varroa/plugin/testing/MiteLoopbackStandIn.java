package dev.varroa.plugin.testing;

import com.google.protobuf.util.JsonFormat;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.ClaimDecision;
import dev.varroa.protocol.builds.v1.ClaimRequest;
import dev.varroa.protocol.builds.v1.EventBatch;
import dev.varroa.protocol.builds.v1.EventBatchAck;
import dev.varroa.protocol.builds.v1.EventKey;
import dev.varroa.protocol.builds.v1.PipelineCallAnswer;
import dev.varroa.protocol.builds.v1.PipelineCallRequest;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Plays the mite's loopback listener as DATAPLANE.md defines it, on a free 127.0.0.1 port: the token written to its
 * file before the listener opens, {@code Authorization: Bearer} checked (401 {@code {"error":...}} with
 * {@code WWW-Authenticate: Bearer}), {@code POST /v1/events} answered with an EventBatchAck and
 * {@code POST /v1/claim} with a ClaimDecision printing every field. What it acknowledges, whether it is full (503
 * with {@code Retry-After: 1}) and how it decides claims are set by the test. The real mite lives in {@code mite/}.
 */
public final class MiteLoopbackStandIn implements AutoCloseable {

  private static final JsonFormat.Printer PRINTER = JsonFormat.printer().alwaysPrintFieldsWithNoPresence()
      .omittingInsignificantWhitespace();

  private final HttpServer server;
  private volatile String token;
  private final List<BuildEvent> received = new CopyOnWriteArrayList<>();
  private final List<ClaimRequest> claims = new CopyOnWriteArrayList<>();
  private final AtomicInteger unauthorized = new AtomicInteger();
  private volatile Predicate<BuildEvent> acknowledges = event -> true;
  private final AtomicInteger busyAnswersLeft = new AtomicInteger();
  private volatile Function<ClaimRequest, Answer> claimAnswer =
      request -> new Answer(503, ClaimDecision.newBuilder().setCode("UNAVAILABLE").setReason("not connected").build());

  /** A pipeline call route's ask: a POST carries the call, a GET only the call id of its path. */
  public record CallAsk(boolean statusOnly, PipelineCallRequest call) {
  }

  /** An HTTP status and the PipelineCallAnswer it carries. */
  public record CallReply(int status, PipelineCallAnswer answer) {
    public static CallReply ok(PipelineCallAnswer answer) {
      return new CallReply(200, answer);
    }

    public static CallReply unavailable(String message) {
      return new CallReply(504, PipelineCallAnswer.newBuilder().setCode("UNAVAILABLE").setMessage(message).build());
    }
  }

  private final List<CallAsk> callAsks = new CopyOnWriteArrayList<>();
  private volatile Function<CallAsk, CallReply> callReply = ask -> CallReply.unavailable("not connected");

  /** How the pipeline call routes answer. */
  public void answerPipelineCalls(Function<CallAsk, CallReply> reply) {
    callReply = reply;
  }

  /** Every ask on the pipeline call routes, in arrival order. */
  public List<CallAsk> pipelineCallAsks() {
    return new ArrayList<>(callAsks);
  }

  /** An HTTP status and the ClaimDecision it carries. */
  public record Answer(int status, ClaimDecision decision) {
    public static Answer granted(long buildNumber) {
      return new Answer(200, ClaimDecision.newBuilder().setDecision("granted").setCode("OK").setBuildNumber(buildNumber).build());
    }
  }

  private MiteLoopbackStandIn(String token) throws IOException {
    this.token = token;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/", this::handle);
  }

  /** Writes {@code token} to {@code tokenFile}, then opens the listener. */
  public static MiteLoopbackStandIn start(Path tokenFile, String token) throws IOException {
    Files.writeString(tokenFile, token + "\n");
    MiteLoopbackStandIn mite = new MiteLoopbackStandIn(token);
    mite.server.start();
    return mite;
  }

  public URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** A mite restart: a new token, written to the file before it is enforced. */
  public void rotateToken(Path tokenFile, String newToken) throws IOException {
    Files.writeString(tokenFile, newToken + "\n");
    token = newToken;
  }

  /** Enforces a token the file does not hold (a 401 storm). */
  public void enforceToken(String newToken) {
    token = newToken;
  }

  public void acknowledgeOnly(Predicate<BuildEvent> which) {
    acknowledges = which;
  }

  public void answerBusy(int times) {
    busyAnswersLeft.set(times);
  }

  public void answerClaims(Function<ClaimRequest, Answer> answer) {
    claimAnswer = answer;
  }

  /** Every event received, in arrival order, resends included. */
  public List<BuildEvent> received() {
    return new ArrayList<>(received);
  }

  public List<ClaimRequest> claims() {
    return new ArrayList<>(claims);
  }

  public int unauthorizedAnswers() {
    return unauthorized.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      if (path.startsWith("/v1/pipeline-calls")) {
        pipelineCall(exchange, path);
        return;
      }
      if (!path.equals("/v1/events") && !path.equals("/v1/claim")) {
        reply(exchange, 404, "{\"error\":\"no route " + path + "\"}");
        return;
      }
      if (!exchange.getRequestMethod().equals("POST")) {
        reply(exchange, 405, "{\"error\":\"POST only\"}");
        return;
      }
      if (!("Bearer " + token).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
        unauthorized.incrementAndGet();
        exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer");
        reply(exchange, 401, "{\"error\":\"missing or wrong loopback token\"}");
        return;
      }
      String body = read(exchange.getRequestBody());
      if (path.equals("/v1/events")) {
        events(exchange, body);
      } else {
        ClaimRequest.Builder request = ClaimRequest.newBuilder();
        JsonFormat.parser().merge(body, request);
        claims.add(request.build());
        Answer answer = claimAnswer.apply(request.build());
        reply(exchange, answer.status(), PRINTER.print(answer.decision()));
      }
    }
  }

  private void pipelineCall(HttpExchange exchange, String path) throws IOException {
    if (!("Bearer " + token).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
      unauthorized.incrementAndGet();
      reply(exchange, 401, "{\"error\":\"missing or wrong loopback token\"}");
      return;
    }
    CallAsk ask;
    if (path.equals("/v1/pipeline-calls") && exchange.getRequestMethod().equals("POST")) {
      PipelineCallRequest.Builder call = PipelineCallRequest.newBuilder();
      JsonFormat.parser().merge(read(exchange.getRequestBody()), call);
      ask = new CallAsk(false, call.build());
    } else if (path.startsWith("/v1/pipeline-calls/") && exchange.getRequestMethod().equals("GET")) {
      ask = new CallAsk(true, PipelineCallRequest.newBuilder()
          .setCallId(path.substring("/v1/pipeline-calls/".length())).build());
    } else {
      reply(exchange, 405, "{\"error\":\"POST /v1/pipeline-calls or GET /v1/pipeline-calls/<id>\"}");
      return;
    }
    callAsks.add(ask);
    CallReply answer = callReply.apply(ask);
    reply(exchange, answer.status(), PRINTER.print(answer.answer()));
  }

  private void events(HttpExchange exchange, String body) throws IOException {
    if (busyAnswersLeft.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
      exchange.getResponseHeaders().set("Retry-After", "1");
      reply(exchange, 503, "{\"error\":\"event retention is full\"}");
      return;
    }
    EventBatch.Builder batch = EventBatch.newBuilder();
    JsonFormat.parser().merge(body, batch);
    EventBatchAck.Builder ack = EventBatchAck.newBuilder();
    for (BuildEvent event : batch.getEventsList()) {
      if (event.getRunId().isEmpty() || event.getSequence() == 0 || event.getJob().isEmpty()) {
        reply(exchange, 400, "{\"error\":\"event without runId, sequence or job\"}");
        return;
      }
      received.add(event);
      if (acknowledges.test(event)) {
        ack.addAcknowledged(EventKey.newBuilder().setRunId(event.getRunId()).setSequence(event.getSequence()));
      } else {
        ack.setRetained(ack.getRetained() + 1);
      }
    }
    reply(exchange, 200, PRINTER.print(ack.build()));
  }

  private static String read(InputStream in) throws IOException {
    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
  }

  private static void reply(HttpExchange exchange, int status, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  @Override
  public void close() {
    server.stop(0);
    ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
  }
}
