package dev.varroa.plugin.loopback;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.varroa.plugin.claims.ClaimDecisions;
import dev.varroa.plugin.config.PluginSettings;
import dev.varroa.protocol.DurationText;
import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.ClaimDecision;
import dev.varroa.protocol.builds.v1.ClaimRequest;
import dev.varroa.protocol.builds.v1.EventBatch;
import dev.varroa.protocol.builds.v1.EventBatchAck;
import dev.varroa.protocol.builds.v1.LogChunkBatch;
import dev.varroa.protocol.builds.v1.LogChunkBatchAck;
import dev.varroa.protocol.builds.v1.PipelineCallAnswer;
import dev.varroa.protocol.builds.v1.PipelineCallRequest;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The plugin's side of the mite's loopback listener: {@code POST /v1/events} and {@code POST /v1/claim} with bodies in
 * the protobuf JSON mapping, {@code POST /v1/logs} in binary protobuf, the cross-tenant step's
 * {@code POST /v1/pipeline-calls} and {@code GET /v1/pipeline-calls/<call id>} in JSON; {@code Authorization: Bearer}
 * the token of {@link LoopbackToken}. Never throws: every failure becomes an {@link EventsOutcome}, a
 * {@link LogsOutcome}, or an empty {@link ClaimDecision} or {@link PipelineCallAnswer} with code UNAVAILABLE.
 */
public final class LoopbackClient implements AutoCloseable {

  public static final String EVENTS_PATH = "/v1/events";
  public static final String CLAIM_PATH = "/v1/claim";
  public static final String LOGS_PATH = "/v1/logs";
  public static final String PIPELINE_CALLS_PATH = "/v1/pipeline-calls";
  public static final String PROTOBUF_TYPE = "application/x-protobuf";
  private static final String JSON_TYPE = "application/json";
  /** An events POST may wait 5 s at the mite's retention cap plus 2 s for the gateway's ack; this covers both. */
  static final Duration EVENTS_READ_TIMEOUT = Duration.ofSeconds(30);
  /** The mite waits VARROA_LOG_APPEND_WAIT (10 s) for the gateway's write; this leaves it room to answer 504. */
  static final Duration LOGS_READ_TIMEOUT = Duration.ofSeconds(30);
  static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);

  private static final JsonFormat.Printer PRINTER = JsonFormat.printer().omittingInsignificantWhitespace();
  private static final JsonFormat.Parser PARSER = JsonFormat.parser().ignoringUnknownFields();

  private final PluginSettings settings;
  private final LoopbackToken token;
  private final ExecutorService httpThreads;
  private final HttpClient http;

  public LoopbackClient(PluginSettings settings, LoopbackToken token) {
    this.settings = settings;
    this.token = token;
    this.httpThreads = Executors.newCachedThreadPool(runnable -> {
      Thread thread = new Thread(runnable, "varroa-loopback-http");
      thread.setDaemon(true);
      return thread;
    });
    this.http = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(settings.claimConnectTimeout())
        .executor((Executor) httpThreads)
        .build();
  }

  public EventsOutcome sendEvents(List<BuildEvent> events) {
    String body;
    try {
      body = PRINTER.print(EventBatch.newBuilder().addAllEvents(events).build());
    } catch (InvalidProtocolBufferException e) {
      return new EventsOutcome.Failed("cannot write the batch as JSON: " + e.getMessage());
    }
    Answer answer;
    try {
      answer = post(EVENTS_PATH, body, EVENTS_READ_TIMEOUT);
    } catch (IOException e) {
      return new EventsOutcome.Failed(e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new EventsOutcome.Failed("interrupted while sending events to the mite");
    }
    return switch (answer.status) {
      case 200 -> {
        EventBatchAck.Builder ack = EventBatchAck.newBuilder();
        try {
          PARSER.merge(answer.body(), ack);
        } catch (InvalidProtocolBufferException e) {
          yield new EventsOutcome.Failed("the mite answered 200 with a body that is not an EventBatchAck: " + e.getMessage());
        }
        yield new EventsOutcome.Acknowledged(ack.getAcknowledgedList(), ack.getRetained());
      }
      case 503 -> new EventsOutcome.Busy(answer.retryAfter(), "the mite's event retention is full: " + answer.body());
      case 401 -> new EventsOutcome.Failed("the mite refused the loopback token from " + token.file() + " (HTTP 401)");
      default -> new EventsOutcome.Failed("the mite answered HTTP " + answer.status + " to " + EVENTS_PATH + ": " + answer.body());
    };
  }

  /** Asks the ledger, within the claim budget; an empty decision with code UNAVAILABLE when no answer came. */
  public ClaimDecision claim(ClaimRequest request) {
    try {
      Answer answer = post(CLAIM_PATH, PRINTER.print(request), settings.claimReadTimeout());
      if (answer.status == 401) {
        return ClaimDecisions.unavailable("the mite refused the loopback token from " + token.file() + " (HTTP 401)");
      }
      ClaimDecision.Builder decision = ClaimDecision.newBuilder();
      try {
        PARSER.merge(answer.body(), decision);
      } catch (InvalidProtocolBufferException e) {
        return ClaimDecisions.unavailable("the mite answered HTTP " + answer.status + " to " + CLAIM_PATH
            + " with a body that is not a ClaimDecision");
      }
      if (decision.getCode().isEmpty()) {
        return ClaimDecisions.unavailable("the mite answered HTTP " + answer.status + " to " + CLAIM_PATH
            + " without a decision code");
      }
      return decision.build();
    } catch (HttpConnectTimeoutException e) {
      return ClaimDecisions.unavailable("no connection to the mite at " + settings.loopbackUrl() + " within "
          + DurationText.seconds(settings.claimConnectTimeout()) + " (" + PluginSettings.CLAIM_CONNECT_TIMEOUT_VARIABLE + ")");
    } catch (HttpTimeoutException e) {
      return ClaimDecisions.unavailable("no claim answer from the mite at " + settings.loopbackUrl() + " within "
          + DurationText.seconds(settings.claimReadTimeout()) + " (" + PluginSettings.CLAIM_READ_TIMEOUT_VARIABLE + ")");
    } catch (IOException e) {
      return ClaimDecisions.unavailable(e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ClaimDecisions.unavailable("interrupted while asking the mite for a claim");
    } catch (RuntimeException e) {
      // Jenkins' queue must never see an exception from the gate.
      return ClaimDecisions.unavailable("claim failed: " + e);
    }
  }

  /** Starts a cross-tenant call, or says where it is when its call id was sent before; never throws. */
  public PipelineCallAnswer callPipeline(PipelineCallRequest call) {
    try {
      return pipelineCallAnswer(PIPELINE_CALLS_PATH, post(PIPELINE_CALLS_PATH, PRINTER.print(call),
          settings.claimReadTimeout()));
    } catch (InvalidProtocolBufferException e) {
      return PipelineCallAnswers.unavailable("cannot write the call as JSON: " + e.getMessage());
    } catch (IOException | InterruptedException | RuntimeException e) {
      return pipelineCallFailure(PIPELINE_CALLS_PATH, e);
    }
  }

  /** Where the call with this id is; never throws. */
  public PipelineCallAnswer pipelineCallStatus(String callId) {
    String path = PIPELINE_CALLS_PATH + "/" + callId;
    try {
      return pipelineCallAnswer(path, get(path, settings.claimReadTimeout()));
    } catch (IOException | InterruptedException | RuntimeException e) {
      return pipelineCallFailure(path, e);
    }
  }

  private PipelineCallAnswer pipelineCallAnswer(String path, Answer answer) {
    if (answer.status == 401) {
      return PipelineCallAnswers.unavailable("the mite refused the loopback token from " + token.file() + " (HTTP 401)");
    }
    PipelineCallAnswer.Builder call = PipelineCallAnswer.newBuilder();
    try {
      PARSER.merge(answer.body(), call);
    } catch (InvalidProtocolBufferException e) {
      return PipelineCallAnswers.unavailable("the mite answered HTTP " + answer.status + " to " + path
          + " with a body that is not a PipelineCallAnswer");
    }
    if (call.getCode().isEmpty() && call.getState().isEmpty()) {
      return PipelineCallAnswers.unavailable("the mite answered HTTP " + answer.status + " to " + path
          + " without a state or a code: " + answer.body().strip());
    }
    return call.build();
  }

  private PipelineCallAnswer pipelineCallFailure(String path, Exception e) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
      return PipelineCallAnswers.unavailable("interrupted while asking the mite about a pipeline call");
    }
    if (e instanceof HttpConnectTimeoutException) {
      return PipelineCallAnswers.unavailable("no connection to the mite at " + settings.loopbackUrl() + " within "
          + DurationText.seconds(settings.claimConnectTimeout()) + " (" + PluginSettings.CLAIM_CONNECT_TIMEOUT_VARIABLE
          + ")");
    }
    if (e instanceof HttpTimeoutException) {
      return PipelineCallAnswers.unavailable("no answer from the mite at " + settings.loopbackUrl() + path
          + " within " + DurationText.seconds(settings.claimReadTimeout()) + " ("
          + PluginSettings.CLAIM_READ_TIMEOUT_VARIABLE + ")");
    }
    return PipelineCallAnswers.unavailable(e instanceof IOException ? e.getMessage() : "pipeline call failed: " + e);
  }

  @Override
  public void close() {
    httpThreads.shutdownNow();
  }

  /**
   * Sends one batch of console log chunks; the gateway's acks when the mite answered 200, else why not. The body is
   * binary protobuf: log bytes in JSON would grow by a third (base64) on the loopback and in the mite's heap.
   */
  public LogsOutcome sendLogs(LogChunkBatch batch) {
    Answer answer;
    try {
      answer = post(LOGS_PATH, batch.toByteArray(), PROTOBUF_TYPE, LOGS_READ_TIMEOUT);
    } catch (HttpTimeoutException e) {
      return new LogsOutcome.Failed("no answer from the mite at " + settings.loopbackUrl() + LOGS_PATH + " within "
          + DurationText.seconds(LOGS_READ_TIMEOUT));
    } catch (IOException e) {
      return new LogsOutcome.Failed(e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new LogsOutcome.Failed("interrupted while sending console log chunks to the mite");
    } catch (RuntimeException e) {
      return new LogsOutcome.Failed("sending console log chunks failed: " + e);
    }
    if (answer.status != 200) {
      String why = answer.status == 401
          ? "the mite refused the loopback token from " + token.file()
          : answer.body().strip();
      return new LogsOutcome.Failed("the mite answered HTTP " + answer.status + " to " + LOGS_PATH + ": " + why);
    }
    try {
      if (answer.contentType != null && answer.contentType.startsWith(JSON_TYPE)) {
        LogChunkBatchAck.Builder ack = LogChunkBatchAck.newBuilder();
        PARSER.merge(answer.body(), ack);
        return new LogsOutcome.Answered(ack.build());
      }
      return new LogsOutcome.Answered(LogChunkBatchAck.parseFrom(answer.bytes));
    } catch (InvalidProtocolBufferException e) {
      return new LogsOutcome.Failed("the mite answered 200 to " + LOGS_PATH + " with a body that is not a"
          + " LogChunkBatchAck: " + e.getMessage());
    }
  }

  private Answer post(String path, String body, Duration timeout) throws IOException, InterruptedException {
    return post(path, body.getBytes(StandardCharsets.UTF_8), JSON_TYPE, timeout);
  }

  private Answer post(String path, byte[] body, String contentType, Duration timeout)
      throws IOException, InterruptedException {
    String bearer = token.current();
    Answer answer = send(path, body, contentType, timeout, bearer);
    if (answer.status == 401 && token.refreshAfterUnauthorized(bearer)) {
      answer = send(path, body, contentType, timeout, token.current());
    }
    return answer;
  }

  private Answer get(String path, Duration timeout) throws IOException, InterruptedException {
    String bearer = token.current();
    Answer answer = send(path, null, JSON_TYPE, timeout, bearer);
    if (answer.status == 401 && token.refreshAfterUnauthorized(bearer)) {
      answer = send(path, null, JSON_TYPE, timeout, token.current());
    }
    return answer;
  }

  /** POSTs {@code body}, or GETs when it is null. */
  private Answer send(String path, byte[] body, String contentType, Duration timeout, String bearer)
      throws IOException, InterruptedException {
    URI uri = settings.loopbackUrl().resolve(path);
    HttpRequest.Builder builder = HttpRequest.newBuilder(uri)
        .timeout(timeout)
        .header("Authorization", "Bearer " + bearer)
        .header("Accept", contentType);
    HttpRequest request = body == null ? builder.GET().build()
        : builder.header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
    try {
      HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
      return new Answer(response.statusCode(), response.body(), response.headers().firstValue("Retry-After").orElse(null),
          response.headers().firstValue("Content-Type").orElse(null));
    } catch (HttpTimeoutException e) {
      throw e;
    } catch (ConnectException e) {
      throw new IOException("cannot connect to the mite at " + settings.loopbackUrl() + " ("
          + (e.getMessage() == null ? "connection refused" : e.getMessage()) + "); the mite listens there once it runs,"
          + " set " + PluginSettings.LOOPBACK_URL_VARIABLE + " when it listens elsewhere", e);
    } catch (IOException e) {
      throw new IOException("request to the mite at " + uri + " failed: " + e, e);
    }
  }


  private record Answer(int status, byte[] bytes, String retryAfterHeader, String contentType) {
    String body() {
      return new String(bytes, StandardCharsets.UTF_8);
    }

    Duration retryAfter() {
      if (retryAfterHeader != null) {
        try {
          long seconds = Long.parseLong(retryAfterHeader.strip());
          if (seconds >= 0) {
            return Duration.ofSeconds(seconds);
          }
        } catch (NumberFormatException e) {
          // An HTTP date is allowed by RFC 9110 but the mite sends seconds; fall back to the default.
        }
      }
      return DEFAULT_RETRY_AFTER;
    }
  }

}
