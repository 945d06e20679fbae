package dev.varroa.gateway.stream;

import dev.varroa.gateway.builds.BuildEventPublisher;
import dev.varroa.gateway.builds.LedgerClaimRelay;
import dev.varroa.gateway.builds.PipelineCallRelay;
import dev.varroa.gateway.builds.PublishOutcome;
import dev.varroa.protocol.BuildEventMessageId;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.DurationText;
import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.EventBatch;
import dev.varroa.protocol.builds.v1.EventKey;
import dev.varroa.protocol.builds.v1.JobScheduleInventory;
import dev.varroa.protocol.bus.v1.BuildEventGroup;
import dev.varroa.protocol.mite.v1.ClaimAnswer;
import dev.varroa.protocol.mite.v1.ClaimAsk;
import dev.varroa.protocol.mite.v1.EventsAcknowledged;
import dev.varroa.protocol.mite.v1.GatewayMessage;
import dev.varroa.protocol.mite.v1.PipelineCallAsk;
import dev.varroa.protocol.mite.v1.PipelineCallReply;
import io.grpc.Status;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The build data plane of a mite stream: event batches become one BuildEventGroup each on
 * varroa_builds and are acknowledged once stored, schedule inventories are republished, claims go
 * to the ledger, cross-tenant pipeline calls to the recorder. The controller is always the certificate's.
 * Nothing here blocks the stream's thread.
 */
final class BuildDataRelay {

  private static final Logger LOG = LoggerFactory.getLogger(BuildDataRelay.class);
  /** Room kept under max_payload for the headers (Nats-Msg-Id, Nats-Expected-Stream) and framing. */
  static final int HEADER_ALLOWANCE = 512;

  private final String gatewayId;
  private final String cluster;
  private final BuildEventPublisher publisher;
  private final LedgerClaimRelay ledger;
  private final PipelineCallRelay calls;
  private final Clock clock;

  BuildDataRelay(String gatewayId, String cluster, BuildEventPublisher publisher, LedgerClaimRelay ledger,
      PipelineCallRelay calls, Clock clock) {
    this.gatewayId = gatewayId;
    this.cluster = cluster;
    this.publisher = publisher;
    this.ledger = ledger;
    this.calls = calls;
    this.clock = clock;
  }

  void events(MiteSession session, EventBatch batch) {
    List<BuildEvent> events = batch.getEventsList();
    CompletableFuture<PublishOutcome> published = events.isEmpty()
        ? CompletableFuture.completedFuture(new PublishOutcome(PublishOutcome.Result.PUBLISHED, 0, null))
        : publishGroups(session, events);
    published.thenAccept(outcome -> afterPublish(session, events, outcome));
    EventsAcknowledged.Builder ack = EventsAcknowledged.newBuilder();
    for (BuildEvent event : events) {
      ack.addKeys(EventKey.newBuilder().setRunId(event.getRunId()).setSequence(event.getSequence()));
    }
    session.sendInArrivalOrder(published.thenApply(PublishOutcome::stored),
        GatewayMessage.newBuilder().setEventsAck(ack).build());
  }

  void schedules(MiteSession session, JobScheduleInventory inventory) {
    ControllerIdentity controller = session.identity();
    byte[] group = group(controller).setSchedules(inventory).build().toByteArray();
    publisher.publish(BusNames.builds(controller), BuildEventMessageId.of(controller, inventory), group,
        session::isOpen).thenAccept(outcome -> {
          if (outcome.result() == PublishOutcome.Result.EXPIRED) {
            // Not retained by the mite, but it forwards the inventory again within ten minutes.
            LOG.warn("event=schedules_publish_expired gateway={} controller={} jobs={} wait=\"{}\" cause=\"{}\"",
                gatewayId, controller.routeKey(), inventory.getJobsCount(),
                DurationText.seconds(publisher.publishWait()), outcome.lastFailure());
          } else {
            LOG.debug("event=schedules_published gateway={} controller={} jobs={} result={}", gatewayId,
                controller.routeKey(), inventory.getJobsCount(), outcome.result());
          }
        });
  }

  void claim(MiteSession session, ClaimAsk ask) {
    ledger.decide(session.identity(), ask.getClaim()).thenAccept(decision -> session.send(
        GatewayMessage.newBuilder().setClaimAnswer(ClaimAnswer.newBuilder()
            .setRequestId(ask.getRequestId())
            .setDecision(decision))
            .build()));
  }

  void pipelineCall(MiteSession session, PipelineCallAsk ask) {
    calls.ask(session.identity(), ask.getCall(), ask.getStatusOnly()).thenAccept(answer -> session.send(
        GatewayMessage.newBuilder().setPipelineCallAnswer(PipelineCallReply.newBuilder()
            .setRequestId(ask.getRequestId())
            .setAnswer(answer))
            .build()));
  }

  // One message per batch; only a batch over the server's max_payload is split, in halves, each half its own id.
  private CompletableFuture<PublishOutcome> publishGroups(MiteSession session, List<BuildEvent> events) {
    ControllerIdentity controller = session.identity();
    byte[] group = group(controller).addAllEvents(events).build().toByteArray();
    if (events.size() > 1 && group.length + HEADER_ALLOWANCE > publisher.maxPayload()) {
      int half = events.size() / 2;
      LOG.info("event=event_group_split gateway={} controller={} events={} bytes={} maxPayload={}", gatewayId,
          controller.routeKey(), events.size(), group.length, publisher.maxPayload());
      CompletableFuture<PublishOutcome> first = publishGroups(session, events.subList(0, half));
      CompletableFuture<PublishOutcome> second = publishGroups(session, events.subList(half, events.size()));
      return first.thenCombine(second, PublishOutcome::combine);
    }
    return publisher.publish(BusNames.builds(controller), BuildEventMessageId.of(controller, events), group,
        session::isOpen);
  }

  private BuildEventGroup.Builder group(ControllerIdentity controller) {
    return BuildEventGroup.newBuilder()
        .setController(controller.toRef())
        .setCluster(cluster)
        .setGatewayId(gatewayId)
        .setPublishedAtEpochMillis(clock.millis());
  }

  private void afterPublish(MiteSession session, List<BuildEvent> events, PublishOutcome outcome) {
    String controller = session.identity().routeKey();
    switch (outcome.result()) {
      case PUBLISHED, DUPLICATE -> LOG.debug("event=event_group_published gateway={} controller={} events={} "
          + "result={} attempts={}", gatewayId, controller, events.size(), outcome.result(), outcome.attempts());
      case ABANDONED -> LOG.info("event=event_group_abandoned gateway={} controller={} session={} events={} "
          + "reason=stream_ended", gatewayId, controller, session.sessionId(), events.size());
      case EXPIRED -> {
        String wait = DurationText.seconds(publisher.publishWait());
        LOG.warn("event=event_publish_expired gateway={} controller={} session={} events={} wait=\"{}\" attempts={} "
            + "cause=\"{}\"", gatewayId, controller, session.sessionId(), events.size(), wait, outcome.attempts(),
            outcome.lastFailure());
        session.close(Status.UNAVAILABLE.withDescription("event publish waited " + wait + " for room on "
            + BusNames.BUILDS_STREAM + " (VARROA_EVENT_PUBLISH_WAIT) and gave up after " + outcome.attempts()
            + " attempts: " + outcome.lastFailure() + "; reconnect and replay the retained events"));
      }
    }
  }
}
