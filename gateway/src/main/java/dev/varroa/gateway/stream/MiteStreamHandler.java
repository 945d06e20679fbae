package dev.varroa.gateway.stream;

import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.gateway.ca.CertificateRequestRejectedException;
import dev.varroa.gateway.ca.ClientCertificate;
import dev.varroa.gateway.tls.PeerIdentity;
import dev.varroa.protocol.ProtocolVersion;
import dev.varroa.protocol.mite.v1.GatewayMessage;
import dev.varroa.protocol.mite.v1.Hello;
import dev.varroa.protocol.mite.v1.MiteMessage;
import dev.varroa.protocol.mite.v1.RefusalReason;
import dev.varroa.protocol.mite.v1.RenewRequest;
import dev.varroa.protocol.mite.v1.RenewResponse;
import dev.varroa.protocol.mite.v1.Welcome;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One MiteChannel/Connect call: waits for Hello, then serves the session until the peer leaves, the
 * stream goes silent for {@link #SILENT_INTERVALS} heartbeat intervals, or the certificate expires.
 */
final class MiteStreamHandler implements StreamObserver<MiteMessage> {

  private static final Logger LOG = LoggerFactory.getLogger(MiteStreamHandler.class);
  /** A stream that sends nothing for three heartbeat intervals is gone. */
  static final int SILENT_INTERVALS = 3;

  private final PeerIdentity peer;
  private final ServerCallStreamObserver<GatewayMessage> outbound;
  private final StreamServices services;
  private final List<ScheduledFuture<?>> timers = new CopyOnWriteArrayList<>();
  private final AtomicBoolean closedBeforeHello = new AtomicBoolean();
  private volatile MiteSession session;
  private volatile long lastHeardMillis;

  MiteStreamHandler(PeerIdentity peer, ServerCallStreamObserver<GatewayMessage> outbound, StreamServices services) {
    this.peer = peer;
    this.outbound = outbound;
    this.services = services;
    this.lastHeardMillis = services.clock().millis();
  }

  void start() {
    // Without a cancel handler, a send after the peer cancelled throws instead of being dropped.
    outbound.setOnCancelHandler(() -> peerLeft(false, "cancelled"));
    Duration helloDeadline = services.heartbeatInterval();
    schedule(() -> {
      if (session == null) {
        closeBeforeHello(Status.DEADLINE_EXCEEDED.withDescription("no Hello within " + helloDeadline
            + ": the first message on the stream must be Hello"));
      }
    }, helloDeadline);
    Duration untilExpiry = Duration.between(services.clock().instant(), peer.certificateNotAfter());
    schedule(this::certificateExpired, untilExpiry.isNegative() ? Duration.ZERO : untilExpiry);
  }

  @Override
  public void onNext(MiteMessage message) {
    lastHeardMillis = services.clock().millis();
    MiteSession current = session;
    if (current == null) {
      if (message.hasHello()) {
        hello(message.getHello());
      } else {
        closeBeforeHello(Status.FAILED_PRECONDITION.withDescription("the first message on the stream must be Hello, "
            + "got " + message.getBodyCase()));
      }
      return;
    }
    switch (message.getBodyCase()) {
      case HEARTBEAT -> {
        // lastHeardMillis is all a heartbeat changes.
      }
      case OBSERVED -> {
        if (current.observe(message.getObserved())) {
          current.serial().execute(() -> services.routes().refresh(current));
          services.activity().observed(current, message.getObserved());
        }
      }
      case ACK -> LOG.debug("event=command_acknowledged controller={} command={}", current.identity().routeKey(),
          message.getAck().getCommandId());
      case RESULT -> current.resultArrived(message.getResult());
      case RENEW -> renew(current, message.getRenew());
      case TOKEN_REQUEST -> services.tokens().requestFor(current);
      case EVENTS -> services.buildData().events(current, message.getEvents());
      case SCHEDULES -> services.buildData().schedules(current, message.getSchedules());
      case CLAIM -> services.buildData().claim(current, message.getClaim());
      case PIPELINE_CALL -> services.buildData().pipelineCall(current, message.getPipelineCall());
      case LOG_APPEND -> services.logs().append(current, message.getLogAppend());
      case HELLO -> LOG.info("event=duplicate_hello_ignored controller={}", current.identity().routeKey());
      default -> LOG.debug("event=unknown_message_ignored controller={} case={}", current.identity().routeKey(),
          message.getBodyCase());
    }
  }

  @Override
  public void onError(Throwable error) {
    peerLeft(false, Status.fromThrowable(error).getCode().toString());
  }

  @Override
  public void onCompleted() {
    peerLeft(true, "completed");
  }

  private void hello(Hello hello) {
    if (!ProtocolVersion.supported(hello.getProtocolVersion())) {
      closeBeforeHello(Status.FAILED_PRECONDITION.withDescription(RefusalReason.PROTOCOL_TOO_OLD.name()
          + ": the mite speaks protocol " + hello.getProtocolVersion() + " and this gateway serves "
          + ProtocolVersion.OLDEST_SUPPORTED + " to " + ProtocolVersion.CURRENT + ": upgrade the mite image"));
      return;
    }
    Optional<String> gone = services.liveControllers().refusal(peer.controller());
    if (gone.isPresent()) {
      closeBeforeHello(Status.PERMISSION_DENIED.withDescription(RefusalReason.CONTROLLER_GONE.name() + ": "
          + gone.get()));
      return;
    }
    MiteSession started = new MiteSession(peer.controller(), peer.certificateNotAfter(), peer.certificatePem(), hello, outbound,
        services.pool(), services.clock());
    started.whenClosed(() -> cleanup(started));
    synchronized (outbound) {
      // A Hello racing the Hello deadline or certificate expiry: whichever came first decides.
      if (closedBeforeHello.get()) {
        return;
      }
      session = started;
    }
    services.sessions().adopt(started).ifPresent(replaced -> {
      LOG.info("event=stream_replaced gateway={} controller={} oldSession={} newSession={}", services.gatewayId(),
          started.identity().routeKey(), replaced.sessionId(), started.sessionId());
      replaced.close(Status.ABORTED.withDescription("replaced by a newer stream of the same controller"));
    });
    started.send(GatewayMessage.newBuilder().setWelcome(Welcome.newBuilder()
        .setProtocolVersion(ProtocolVersion.negotiated(hello.getProtocolVersion()))
        .setGatewayId(services.gatewayId())
        .setHeartbeatIntervalSeconds((int) Math.max(1, services.heartbeatInterval().toSeconds()))
        .setCertificateNotAfterEpochMillis(peer.certificateNotAfter().toEpochMilli()))
        .build());
    started.serial().execute(() -> services.routes().claim(started));
    Duration interval = services.heartbeatInterval();
    timers.add(services.timers().scheduleAtFixedRate(this::closeIfSilent, interval.toMillis(), interval.toMillis(),
        TimeUnit.MILLISECONDS));
    LOG.info("event=stream_opened gateway={} controller={} uid={} session={} miteVersion={} pod={} certNotAfter={}",
        services.gatewayId(), started.identity().routeKey(), started.identity().uid(), started.sessionId(),
        hello.getMiteVersion(), hello.getPodName(), peer.certificateNotAfter());
    services.sessionStarted().accept(started);
    services.activity().connected(started);
  }

  private void renew(MiteSession current, RenewRequest request) {
    Optional<String> gone = services.liveControllers().refusal(current.identity());
    if (gone.isPresent()) {
      LOG.warn("event=renewal_refused gateway={} controller={} reason={}", services.gatewayId(),
          current.identity().routeKey(), RefusalReason.CONTROLLER_GONE);
      current.close(Status.PERMISSION_DENIED.withDescription(RefusalReason.CONTROLLER_GONE.name() + ": " + gone.get()));
      return;
    }
    try {
      ClientCertificate renewed = services.ca().signClientCertificate(
          CertificateAuthority.parseCertificationRequest(request.getCsrDer().toByteArray()), current.identity(),
          services.clock().instant());
      current.send(GatewayMessage.newBuilder().setRenewed(RenewResponse.newBuilder()
          .setCertificateChainPem(renewed.certificateChainPem())
          .setNotAfterEpochMillis(renewed.notAfter().toEpochMilli()))
          .build());
      LOG.info("event=certificate_renewed gateway={} controller={} notAfter={}", services.gatewayId(),
          current.identity().routeKey(), renewed.notAfter());
    } catch (CertificateRequestRejectedException e) {
      LOG.warn("event=renewal_refused gateway={} controller={} reason={}", services.gatewayId(),
          current.identity().routeKey(), RefusalReason.CSR_INVALID);
      // No refusal message exists on the stream: ending it tells the mite, which keeps its current certificate.
      current.close(Status.INVALID_ARGUMENT.withDescription(RefusalReason.CSR_INVALID.name() + ": " + e.getMessage()));
    }
  }

  private void closeIfSilent() {
    MiteSession current = session;
    long silentMillis = services.clock().millis() - lastHeardMillis;
    Duration limit = services.heartbeatInterval().multipliedBy(SILENT_INTERVALS);
    if (current != null && silentMillis > limit.toMillis()) {
      LOG.warn("event=stream_silent gateway={} controller={} session={} silentFor={}ms", services.gatewayId(),
          current.identity().routeKey(), current.sessionId(), silentMillis);
      current.close(Status.UNAVAILABLE.withDescription("no message for " + Duration.ofMillis(silentMillis)
          + " (" + SILENT_INTERVALS + " heartbeat intervals): the gateway closed the stream; reconnect"));
    }
  }

  private void certificateExpired() {
    Status expired = Status.UNAUTHENTICATED.withDescription("the client certificate expired at "
        + peer.certificateNotAfter() + ": reconnect with the renewed certificate");
    MiteSession current = session;
    if (current != null) {
      LOG.info("event=stream_certificate_expired gateway={} controller={} session={}", services.gatewayId(),
          current.identity().routeKey(), current.sessionId());
      current.close(expired);
    } else {
      closeBeforeHello(expired);
    }
  }

  private void closeBeforeHello(Status status) {
    synchronized (outbound) {
      if (session != null || !closedBeforeHello.compareAndSet(false, true)) {
        return;
      }
    }
    LOG.warn("event=stream_refused gateway={} controller={} status={} detail=\"{}\"", services.gatewayId(),
        peer.controller().routeKey(), status.getCode(), status.getDescription());
    synchronized (outbound) {
      try {
        outbound.onError(status.asRuntimeException());
      } catch (RuntimeException alreadyGone) {
        LOG.debug("event=stream_close_ignored error=\"{}\"", alreadyGone.toString());
      }
    }
    cancelTimers();
  }

  private void peerLeft(boolean completed, String how) {
    MiteSession current = session;
    if (current == null) {
      closedBeforeHello.set(true);
      cancelTimers();
      return;
    }
    if (current.ended(completed)) {
      LOG.info("event=stream_ended_by_mite gateway={} controller={} session={} how={}", services.gatewayId(),
          current.identity().routeKey(), current.sessionId(), how);
    }
  }

  // Runs once per session, whoever ended it.
  private void cleanup(MiteSession ended) {
    cancelTimers();
    services.sessions().release(ended);
    if (!services.routesRetained().getAsBoolean()) {
      ended.serial().execute(() -> services.routes().release(ended));
    }
    LOG.info("event=stream_closed gateway={} controller={} session={}", services.gatewayId(),
        ended.identity().routeKey(), ended.sessionId());
    // A stream replaced by a newer one of the same controller is no disconnect.
    if (services.sessions().find(ended.identity()).isEmpty()) {
      services.activity().disconnected(ended);
    }
  }

  private void schedule(Runnable task, Duration delay) {
    timers.add(services.timers().schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS));
  }

  private void cancelTimers() {
    timers.forEach(timer -> timer.cancel(false));
  }
}
