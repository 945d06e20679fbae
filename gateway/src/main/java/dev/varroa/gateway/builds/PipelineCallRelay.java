package dev.varroa.gateway.builds;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.builds.v1.PipelineCallAnswer;
import dev.varroa.protocol.builds.v1.PipelineCallRequest;
import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.protocol.bus.v1.PipelineCall;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the recorder, by NATS request on varroa.recorder.pipeline-calls, to run another Team's pipeline for a
 * cross-tenant step, or where such a call is (docs/pipelines.md). Who calls is the controller of the mite's
 * certificate and this gateway's cluster, never anything the plugin sent. Whatever goes wrong within the budget
 * becomes an answer with an empty state, code UNAVAILABLE and a message naming the hop, so the step asks again.
 */
public final class PipelineCallRelay {

  private static final Logger LOG = LoggerFactory.getLogger(PipelineCallRelay.class);
  public static final String UNAVAILABLE = "UNAVAILABLE";
  /** Under the mite's 4.5 s wait for the answer, so the step hears UNAVAILABLE with this message, not a bare 504. */
  public static final Duration RECORDER_WAIT = Duration.ofSeconds(4);

  private final CoreRequest recorder;
  private final String gatewayId;
  private final String cluster;

  public PipelineCallRelay(BusConnection bus, String gatewayId, String cluster, Duration budget, Executor pool) {
    this.recorder = new CoreRequest(bus, BusNames.PIPELINE_CALLS_SUBJECT, "recorder", "pipeline call", budget, pool);
    this.gatewayId = gatewayId;
    this.cluster = cluster;
  }

  /** The recorder's answer, or an UNAVAILABLE one once the budget is spent; never completes exceptionally. */
  public CompletableFuture<PipelineCallAnswer> ask(ControllerIdentity controller, PipelineCallRequest call,
      boolean statusOnly) {
    byte[] request = PipelineCall.newBuilder()
        .setController(controller.toRef())
        .setCluster(cluster)
        .setCall(call)
        .setStatusOnly(statusOnly)
        .build()
        .toByteArray();
    return recorder.send(request).thenApply(reply -> reply.data() == null
        ? unavailable(controller, call, reply.unavailable())
        : read(controller, call, reply.data()));
  }

  private PipelineCallAnswer read(ControllerIdentity controller, PipelineCallRequest call, byte[] data) {
    PipelineCallAnswer answer;
    try {
      answer = PipelineCallAnswer.parseFrom(data);
    } catch (InvalidProtocolBufferException e) {
      return unavailable(controller, call, "the recorder's reply is not a PipelineCallAnswer (" + e.getMessage()
          + ")");
    }
    LOG.debug("event=pipeline_call_answered gateway={} controller={} call={} state={} code={} run={}", gatewayId,
        controller.routeKey(), call.getCallId(), answer.getState(), answer.getCode(), answer.getRunId());
    return answer;
  }

  private PipelineCallAnswer unavailable(ControllerIdentity controller, PipelineCallRequest call, String reason) {
    LOG.warn("event=pipeline_call_unavailable gateway={} controller={} call={} reason=\"{}\"", gatewayId,
        controller.routeKey(), call.getCallId(), reason.replace('"', '\''));
    return PipelineCallAnswer.newBuilder().setState("").setCode(UNAVAILABLE).setMessage(reason).build();
  }
}
