package dev.varroa.gateway.stream;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.JenkinsTokenGrant;
import dev.varroa.protocol.bus.v1.JenkinsTokenGrantRequest;
import dev.varroa.protocol.mite.v1.GatewayMessage;
import io.nats.client.Connection;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the operator for a fresh Jenkins token on behalf of a mite, naming the controller from the
 * mite's certificate, and relays the grant over the stream. A refusal or silence is logged; the mite
 * asks again.
 */
final class JenkinsTokenRelay {

  private static final Logger LOG = LoggerFactory.getLogger(JenkinsTokenRelay.class);
  static final Duration GRANT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

  private final BusConnection bus;
  private final String gatewayId;
  private final String clusterName;

  JenkinsTokenRelay(BusConnection bus, String gatewayId, String clusterName) {
    this.bus = bus;
    this.gatewayId = gatewayId;
    this.clusterName = clusterName;
  }

  void requestFor(MiteSession session) {
    String controller = session.identity().routeKey();
    Connection connection = bus.connection();
    byte[] request = JenkinsTokenGrantRequest.newBuilder().setController(session.identity().toRef())
        .setCertificatePem(session.certificatePem()).setProtocolVersion(session.protocolVersion()).build()
        .toByteArray();
    connection.requestWithTimeout(BusNames.jenkinsTokenRequests(clusterName), request, GRANT_REQUEST_TIMEOUT)
        .whenComplete((reply, failure) -> {
          if (failure != null || reply == null || reply.isStatusMessage()) {
            LOG.warn("event=jenkins_token_unavailable gateway={} controller={} cause={}", gatewayId, controller,
                failure != null ? failure.getClass().getSimpleName() : "no operator answered");
            return;
          }
          JenkinsTokenGrant grant;
          try {
            grant = JenkinsTokenGrant.parseFrom(reply.getData());
          } catch (InvalidProtocolBufferException e) {
            LOG.warn("event=jenkins_token_unavailable gateway={} controller={} cause=unreadable_grant", gatewayId,
                controller);
            return;
          }
          if (!grant.hasToken() || (grant.getToken().getJwt().isEmpty() && !grant.getToken().hasSealedJwt())) {
            LOG.warn("event=jenkins_token_refused gateway={} controller={} refusal=\"{}\"", gatewayId, controller,
                grant.getRefusal());
            return;
          }
          boolean sent = session.send(GatewayMessage.newBuilder().setJenkinsToken(grant.getToken()).build());
          LOG.info("event=jenkins_token_relayed gateway={} controller={} delivered={} expiresAt={}", gatewayId,
              controller, sent, grant.getToken().getExpiresAtEpochMillis());
        });
  }
}
