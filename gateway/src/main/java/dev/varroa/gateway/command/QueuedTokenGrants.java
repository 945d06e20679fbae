package dev.varroa.gateway.command;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.protocol.bus.v1.JenkinsTokenGrant;
import dev.varroa.protocol.bus.v1.JenkinsTokenGrantRequest;
import dev.varroa.gateway.stream.MiteSession;
import dev.varroa.protocol.bus.v1.QueuedCommand;
import dev.varroa.protocol.mite.v1.JenkinsToken;
import io.nats.client.Message;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A queued Jenkins token grant holds no token (NATS stores no credential): the gateway running it asks the
 * operator for a token minted now, on the same request/reply subject the mite's own refresh uses, and relays it.
 * A grant past its 24 hours is dropped with an activity event instead.
 */
final class QueuedTokenGrants {

  /** "A token grant can stay queued in JetStream for up to 24 hours." */
  static final Duration GRANT_MAX_QUEUED_AGE = Duration.ofHours(24);
  /** How long the operator may take to mint the token. */
  static final Duration OPERATOR_ANSWER_WAIT = Duration.ofSeconds(10);
  /** A grant no operator answered (none running) is offered again after this, until it expires. */
  static final Duration RETRY_AFTER_SILENCE = Duration.ofSeconds(30);
  /** Activity kind of a grant dropped undelivered (docs/activity.md). */
  static final String GRANT_EXPIRED = "jenkins_token.grant_expired";

  /** What the operator answered: a token, a refusal naming why, or nothing in time. */
  sealed interface Answer {
    record Granted(JenkinsToken token) implements Answer {}

    record Refused(String reason) implements Answer {}

    record Silent(String why) implements Answer {}
  }

  private final String gatewayId;
  private final String clusterName;
  private final BusConnection bus;
  private final ActivityPublisher activity;

  QueuedTokenGrants(String gatewayId, String clusterName, BusConnection bus, ActivityPublisher activity) {
    this.gatewayId = gatewayId;
    this.clusterName = clusterName;
    this.bus = bus;
    this.activity = activity;
  }

  /** The earlier of the grant's own deadline and 24 hours after it was queued (a grant without either: now). */
  static Instant expiry(QueuedCommand grant) {
    Instant deadline = grant.getCommand().getDeadlineEpochMillis() > 0
        ? Instant.ofEpochMilli(grant.getCommand().getDeadlineEpochMillis()) : Instant.MAX;
    Instant ageLimit = grant.getQueuedAtEpochMillis() > 0
        ? Instant.ofEpochMilli(grant.getQueuedAtEpochMillis()).plus(GRANT_MAX_QUEUED_AGE) : Instant.MAX;
    Instant first = deadline.isBefore(ageLimit) ? deadline : ageLimit;
    return first.equals(Instant.MAX) ? Instant.EPOCH : first;
  }

  /**
   * Asks the operator for a token for the controller of this stream, sealed to the stream's certificate key when the
   * mite speaks protocol 2; blocks up to {@link #OPERATOR_ANSWER_WAIT}.
   */
  Answer request(MiteSession session) throws InterruptedException {
    byte[] request = JenkinsTokenGrantRequest.newBuilder().setController(session.identity().toRef())
        .setCertificatePem(session.certificatePem()).setProtocolVersion(session.protocolVersion()).build()
        .toByteArray();
    CompletableFuture<Message> reply = bus.connection().requestWithTimeout(
        BusNames.jenkinsTokenRequests(clusterName), request, OPERATOR_ANSWER_WAIT);
    Message answer;
    try {
      answer = reply.get(OPERATOR_ANSWER_WAIT.toMillis() + 1000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      return new Answer.Silent("no operator answered on " + BusNames.jenkinsTokenRequests(clusterName) + " within "
          + OPERATOR_ANSWER_WAIT.toSeconds() + " s");
    }
    if (answer == null || answer.isStatusMessage()) {
      return new Answer.Silent("no operator is subscribed to " + BusNames.jenkinsTokenRequests(clusterName));
    }
    try {
      JenkinsTokenGrant grant = JenkinsTokenGrant.parseFrom(answer.getData());
      if (!grant.hasToken() || (grant.getToken().getJwt().isEmpty() && !grant.getToken().hasSealedJwt())) {
        return new Answer.Refused(grant.getRefusal().isEmpty() ? "the operator granted no token" : grant.getRefusal());
      }
      return new Answer.Granted(grant.getToken());
    } catch (InvalidProtocolBufferException e) {
      return new Answer.Refused("the operator's answer is not a JenkinsTokenGrant");
    }
  }

  /** The activity event of a grant dropped because it waited longer than it may. */
  void expired(ControllerIdentity controller, QueuedCommand grant, Instant expiry) {
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("gateway", gatewayId);
    attributes.put("command", grant.getCommand().getCommandId());
    attributes.put("queuedAt", Instant.ofEpochMilli(grant.getQueuedAtEpochMillis()).toString());
    attributes.put("expiredAt", expiry.toString());
    attributes.put("reason", grant.getJenkinsTokenGrant().getReason());
    activity.controller(controller.namespace(), controller.name(), GRANT_EXPIRED,
        "Jenkins token grant queued at " + attributes.get("queuedAt") + " expired at " + expiry
            + " before its mite was connected: dropped, not delivered", attributes);
  }
}
