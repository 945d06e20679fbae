package dev.varroa.mite;

import com.google.protobuf.ByteString;
import dev.varroa.protocol.ProtocolVersion;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandAck;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.GatewayMessage;
import dev.varroa.protocol.mite.v1.Heartbeat;
import dev.varroa.protocol.mite.v1.Hello;
import dev.varroa.protocol.mite.v1.JenkinsToken;
import dev.varroa.protocol.mite.v1.JenkinsTokenRequest;
import dev.varroa.protocol.mite.v1.MiteChannelGrpc;
import dev.varroa.protocol.mite.v1.MiteMessage;
import dev.varroa.protocol.mite.v1.ObservedState;
import dev.varroa.protocol.mite.v1.RenewRequest;
import dev.varroa.protocol.mite.v1.RenewResponse;
import dev.varroa.protocol.mite.v1.Welcome;
import dev.varroa.protocol.seal.OpeningKey;
import dev.varroa.protocol.seal.SealRefusedException;
import dev.varroa.protocol.seal.SealedCommands;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.security.cert.CertificateException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mite's side of the control channel: registers when it holds no certificate, keeps one mutual-TLS
 * stream to a gateway, and reconnects with backoff when it breaks, rotating through the gateways.
 * While connected it sends heartbeats and observed state, runs commands, renews its certificate at
 * half life and asks for the next Jenkins token at two thirds of the current one's life.
 */
final class ChannelSession implements AutoCloseable {

  /** Seed 000: "The mite sends a heartbeat every 15 seconds." Used when the Welcome names no interval. */
  static final Duration HEARTBEAT_INTERVAL = Duration.ofSeconds(15);
  /** A gateway that accepted the connection but sends no Welcome within this is treated as broken. */
  static final Duration WELCOME_TIMEOUT = Duration.ofSeconds(30);
  /** Renew at half the certificate's life, spread by this share either way so mites do not renew together. */
  static final double RENEW_AT_LIFETIME_SHARE = 0.5;
  static final double RENEW_JITTER_SHARE = 0.05;
  /** A renewal the gateway has not answered within this is asked again with a fresh key. */
  static final Duration RENEW_ANSWER_WAIT = Duration.ofMinutes(1);
  /** How often the mite repeats an unanswered Jenkins token request. */
  static final Duration JENKINS_TOKEN_REQUEST_RETRY = Duration.ofMinutes(1);

  private static final Logger LOG = LoggerFactory.getLogger(ChannelSession.class);

  /** Jenkins as the mite sees it now; blocks for a few HTTP calls at most. */
  interface Observation {
    ObservedState now() throws InterruptedException;
  }

  enum StreamEnd { BROKEN, IDENTITY_REFUSED, RENEWED, STOPPED }

  /** One welcomed stream, as the build data plane sees it. */
  interface StreamLink {
    /** Sends one message; false when the stream has ended. Never blocks on the network. */
    boolean send(MiteMessage message);
  }

  /** Something riding on the stream (events, claims, logs, schedules); every callback must return quickly. */
  interface StreamUser {
    /** A gateway welcomed a new stream; it carries messages until {@link #ended}. */
    default void welcomed(StreamLink link) {
    }

    /** The welcomed stream ended; nothing sent on it arrives any more. */
    default void ended(StreamLink link) {
    }

    /** An events acknowledgement, a claim answer, a log append answer or a pipeline call's answer from the gateway. */
    default void received(GatewayMessage message) {
    }
  }

  private final String podName;
  private final Registrar registrar;
  private final GatewayChannels channels;
  private final GatewayRotation gateways;
  private final Backoff backoff;
  private final StopSignal stop;
  private final CommandRunner commands;
  private final JenkinsBearer bearer;
  private final IdentityStore store;
  private final Observation observation;
  private final Clock clock;
  private final List<StreamUser> users;
  private final ScheduledThreadPoolExecutor timers = timers();
  // observing Jenkins may block for seconds; it must never delay a heartbeat
  private final ExecutorService observer = Executors.newSingleThreadExecutor(GatewayChannels.daemonThreads("mite-observe"));
  private final AtomicBoolean observationQueued = new AtomicBoolean();
  private final Thread loop;

  private volatile MiteIdentity identity;
  private volatile StreamAttempt current;
  private volatile ObservedState lastObserved = ObservedState.getDefaultInstance();

  ChannelSession(String podName, Registrar registrar, GatewayChannels channels, GatewayRotation gateways,
      Backoff backoff, StopSignal stop, CommandRunner commands, JenkinsBearer bearer, IdentityStore store,
      Observation observation, Clock clock, List<StreamUser> users) {
    this.users = List.copyOf(users);
    this.podName = podName;
    this.registrar = registrar;
    this.channels = channels;
    this.gateways = gateways;
    this.backoff = backoff;
    this.stop = stop;
    this.commands = commands;
    this.bearer = bearer;
    this.store = store;
    this.observation = observation;
    this.clock = clock;
    this.loop = new Thread(this::run, "mite-session");
    loop.setDaemon(true);
  }

  void start() {
    loop.start();
  }

  boolean connected() {
    StreamAttempt attempt = current;
    return attempt != null && attempt.welcomed && !attempt.ended.isDone();
  }

  Optional<String> gatewayId() {
    StreamAttempt attempt = current;
    return attempt != null && attempt.welcomed && !attempt.ended.isDone()
        ? Optional.of(attempt.gatewayId) : Optional.empty();
  }

  Optional<MiteIdentity> identity() {
    return Optional.ofNullable(identity);
  }

  ObservedState lastObserved() {
    return lastObserved;
  }

  /** Polls Jenkins soon and sends the observed state if it changed (after a command, for instance). */
  void observeSoon() {
    if (observationQueued.compareAndSet(false, true)) {
      try {
        observer.execute(() -> {
          observationQueued.set(false);
          observeAndSend(false);
        });
      } catch (RejectedExecutionException closing) {
        observationQueued.set(false);
      }
    }
  }

  private void run() {
    boolean identityRefused = false;
    while (!stop.stopped()) {
      MiteIdentity held = identity;
      if (identityRefused || held == null || !held.validBeyond(clock.instant(), Registrar.IDENTITY_REUSE_MARGIN)) {
        Optional<MiteIdentity> obtained = identityRefused ? registrar.registerFresh() : registrar.obtain();
        if (obtained.isEmpty()) {
          return;
        }
        identity = obtained.get();
        identityRefused = false;
      }
      GatewayEndpoint endpoint = gateways.next();
      MiteIdentity used = identity;
      StreamEnd end = stream(endpoint, used);
      if (end == StreamEnd.STOPPED || stop.stopped()) {
        return;
      }
      if (end == StreamEnd.RENEWED) {
        continue;
      }
      // a refusal of a certificate already replaced by a renewal says nothing about the new one
      identityRefused = end == StreamEnd.IDENTITY_REFUSED && used == identity;
      if (identityRefused) {
        LOG.warn("event=certificate_refused not_after={} action=register_again", used.notAfter());
      }
      Duration wait = backoff.next();
      LOG.info("event=reconnect_scheduled in_ms={}", wait.toMillis());
      if (stop.await(wait)) {
        return;
      }
    }
  }

  private StreamEnd stream(GatewayEndpoint endpoint, MiteIdentity id) {
    ManagedChannel channel;
    try {
      channel = channels.stream(endpoint, id);
    } catch (IOException e) {
      LOG.warn("event=stream_failed gateway_endpoint={} reason=local_error error=\"{}\"", endpoint, e.getMessage());
      return StreamEnd.BROKEN;
    }
    StreamAttempt attempt = new StreamAttempt(endpoint, id);
    current = attempt;
    try {
      if (stop.stopped()) {
        return StreamEnd.STOPPED;
      }
      attempt.open(MiteChannelGrpc.newStub(channel));
      return attempt.ended.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return StreamEnd.STOPPED;
    } catch (ExecutionException e) {
      return StreamEnd.BROKEN;
    } finally {
      attempt.end(StreamEnd.STOPPED, "closing");
      channel.shutdownNow();
    }
  }

  private void observeAndSend(boolean always) {
    try {
      ObservedState observed = observation.now();
      lastObserved = observed;
      StreamAttempt attempt = current;
      if (attempt != null && attempt.welcomed) {
        attempt.sendObserved(observed, always);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.warn("event=observe_failed error={}", e.getClass().getSimpleName(), e);
    }
  }

  @Override
  public void close() {
    stop.stop();
    StreamAttempt attempt = current;
    if (attempt != null) {
      attempt.end(StreamEnd.STOPPED, "mite stopping");
    }
    timers.shutdownNow();
    observer.shutdownNow();
    try {
      loop.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** One stream to one gateway, from Hello to its end. */
  private final class StreamAttempt implements StreamObserver<GatewayMessage>, CommandRunner.ResultSink, StreamLink {
    private final GatewayEndpoint endpoint;
    private final MiteIdentity id;
    private final CompletableFuture<StreamEnd> ended = new CompletableFuture<>();
    private final List<ScheduledFuture<?>> scheduled = new ArrayList<>();
    private StreamObserver<MiteMessage> outbound;
    private volatile boolean welcomed;
    private volatile String gatewayId = "";
    private ObservedState sentObserved;
    private long heartbeatSequence;
    private SigningRequest pendingRenewal;
    private Instant renewalAskedAt;
    private boolean renewed;
    private Instant tokenAskedAt;

    StreamAttempt(GatewayEndpoint endpoint, MiteIdentity id) {
      this.endpoint = endpoint;
      this.id = id;
    }

    void open(MiteChannelGrpc.MiteChannelStub stub) throws InterruptedException {
      ObservedState observed = observation.now();
      lastObserved = observed;
      synchronized (this) {
        outbound = stub.connect(this);
        sentObserved = observed;
      }
      send(MiteMessage.newBuilder().setHello(Hello.newBuilder()
          .setProtocolVersion(ProtocolVersion.CURRENT)
          .setMiteVersion(MiteVersion.CURRENT)
          .setPodName(podName)
          .setObserved(observed)).build());
      schedule(() -> {
        if (!welcomed) {
          end(StreamEnd.BROKEN, "no Welcome within " + WELCOME_TIMEOUT.toSeconds() + " s");
        }
      }, WELCOME_TIMEOUT);
    }

    @Override
    public void onNext(GatewayMessage message) {
      switch (message.getBodyCase()) {
        case WELCOME -> welcome(message.getWelcome());
        case COMMAND -> command(message.getCommand());
        case RENEWED -> renewed(message.getRenewed());
        case JENKINS_TOKEN -> jenkinsToken(message.getJenkinsToken());
        case EVENTS_ACK, CLAIM_ANSWER, LOG_APPEND_ANSWER, PIPELINE_CALL_ANSWER ->
            users.forEach(user -> user.received(message));
        case BODY_NOT_SET -> LOG.debug("event=gateway_message_ignored reason=unknown_body");
      }
    }

    @Override
    public void onError(Throwable t) {
      Status status = Status.fromThrowable(t);
      boolean identityRefused = status.getCode() == Status.Code.UNAUTHENTICATED
          || status.getCode() == Status.Code.PERMISSION_DENIED;
      String cause = status.getCause() == null ? "" : " cause=" + status.getCause().getClass().getSimpleName();
      end(identityRefused ? StreamEnd.IDENTITY_REFUSED : StreamEnd.BROKEN,
          "code=" + status.getCode() + cause + " detail=\"" + oneLine(status.getDescription()) + "\"");
    }

    @Override
    public void onCompleted() {
      end(StreamEnd.BROKEN, "gateway ended the stream");
    }

    private void welcome(Welcome welcome) {
      gatewayId = welcome.getGatewayId();
      welcomed = true;
      backoff.reset();
      Duration interval = welcome.getHeartbeatIntervalSeconds() > 0
          ? Duration.ofSeconds(welcome.getHeartbeatIntervalSeconds()) : HEARTBEAT_INTERVAL;
      LOG.info("event=connected gateway_id={} gateway_endpoint={} protocol_version={} heartbeat_s={} "
          + "certificate_not_after={}", gatewayId, endpoint,
          ProtocolVersion.negotiated(welcome.getProtocolVersion()), interval.toSeconds(), id.notAfter());
      scheduleRepeating(this::tick, interval);
      scheduleRepeating(ChannelSession.this::observeSoon, interval);
      // the gateway writes its route from the Hello; this first ObservedState is sent whatever it holds
      try {
        observer.execute(() -> observeAndSend(true));
      } catch (RejectedExecutionException closing) {
        return;
      }
      schedule(this::askRenewal, Duration.between(clock.instant(), renewAt(id)));
      users.forEach(user -> user.welcomed(this));
    }

    private void command(Command command) {
      send(MiteMessage.newBuilder().setAck(CommandAck.newBuilder().setCommandId(command.getCommandId())).build());
      LOG.info("event=command_received command_id={} kind={} sealed={}", command.getCommandId(), command.getKindCase(),
          SealedCommands.isSealed(command));
      Command opened;
      try {
        opened = SealedCommands.open(command, openingKeys());
      } catch (SealRefusedException e) {
        // nothing of it is applied; a seal to another key is re-sent by the operator sealed to this stream's key
        CommandResult.Outcome outcome = e.reason() == SealRefusedException.Reason.OTHER_KEY
            ? CommandResult.Outcome.SEALED_TO_OTHER_KEY : CommandResult.Outcome.REJECTED;
        LOG.warn("event=command_seal_refused command_id={} outcome={} detail=\"{}\"", command.getCommandId(), outcome,
            e.getMessage());
        deliver(CommandResult.newBuilder().setCommandId(command.getCommandId()).setOutcome(outcome)
            .setMessage(e.getMessage()).setBundleDigest(command.getDesiredState().getBundleDigest())
            .setFinishedAtEpochMillis(clock.millis()).build());
        return;
      }
      commands.submit(opened, this);
    }

    private void jenkinsToken(JenkinsToken sent) {
      JenkinsToken token;
      try {
        token = SealedCommands.open(sent, openingKeys());
      } catch (SealRefusedException e) {
        // the mite asks again within a minute while its token is due; the answer is sealed to this stream's key
        LOG.warn("event=jenkins_token_seal_refused reason={} detail=\"{}\"", e.reason(), e.getMessage());
        return;
      }
      if (bearer.update(token)) {
        LOG.info("event=jenkins_token_received expires_at={} sealed={}",
            Instant.ofEpochMilli(token.getExpiresAtEpochMillis()), sent.hasSealedJwt());
      }
    }

    /** This stream's key (what its route names), and the renewed one once there is one. */
    private List<OpeningKey> openingKeys() {
      List<OpeningKey> keys = new ArrayList<>();
      keys.add(OpeningKey.of(id.certificate().getPublicKey(), id.key()));
      MiteIdentity held = identity;
      if (held != null && held != id) {
        keys.add(OpeningKey.of(held.certificate().getPublicKey(), held.key()));
      }
      return keys;
    }

    @Override
    public void deliver(CommandResult result) {
      if (!send(MiteMessage.newBuilder().setResult(result).build())) {
        LOG.warn("event=result_dropped command_id={} reason=stream_ended", result.getCommandId());
      }
      observeSoon();
      reconnectIfRenewed();
    }

    private void tick() {
      send(MiteMessage.newBuilder().setHeartbeat(Heartbeat.newBuilder()
          .setSequence(++heartbeatSequence).setSentAtEpochMillis(clock.millis())).build());
      Instant now = clock.instant();
      synchronized (this) {
        if (bearer.refreshDue() && (tokenAskedAt == null
            || !now.isBefore(tokenAskedAt.plus(JENKINS_TOKEN_REQUEST_RETRY)))) {
          tokenAskedAt = now;
          LOG.info("event=jenkins_token_requested held={}", bearer.jwt().isPresent());
          send(MiteMessage.newBuilder().setTokenRequest(JenkinsTokenRequest.getDefaultInstance()).build());
        }
        if (pendingRenewal != null && !now.isBefore(renewalAskedAt.plus(RENEW_ANSWER_WAIT))) {
          LOG.warn("event=renewal_unanswered asked_at={}", renewalAskedAt);
          askRenewal();
        }
      }
      reconnectIfRenewed();
    }

    private synchronized void askRenewal() {
      if (renewed || ended.isDone()) {
        return;
      }
      pendingRenewal = SigningRequest.generate();
      renewalAskedAt = clock.instant();
      LOG.info("event=renewal_requested certificate_not_after={}", id.notAfter());
      send(MiteMessage.newBuilder().setRenew(RenewRequest.newBuilder()
          .setCsrDer(ByteString.copyFrom(pendingRenewal.csrDer()))).build());
    }

    private void renewed(RenewResponse response) {
      MiteIdentity next;
      synchronized (this) {
        if (pendingRenewal == null) {
          LOG.warn("event=renewal_ignored reason=not_asked");
          return;
        }
        try {
          next = new MiteIdentity(pendingRenewal.keyPair().getPrivate(),
              MiteIdentity.parseChain(response.getCertificateChainPem()));
        } catch (CertificateException e) {
          LOG.warn("event=renewal_ignored reason=chain_unparseable");
          return;
        }
        if (!next.keyMatches() || !next.controller().equals(id.controller())) {
          LOG.warn("event=renewal_ignored reason=certificate_not_for_this_key_or_controller");
          return;
        }
        pendingRenewal = null;
      }
      try {
        store.save(next);
      } catch (IOException e) {
        // the new certificate still works for this process; a container restart will register again
        LOG.warn("event=identity_store_failed error=\"{}\"", e.getMessage());
      }
      identity = next;
      synchronized (this) {
        renewed = true;
      }
      LOG.info("event=certificate_renewed not_after={}", next.notAfter());
      reconnectIfRenewed();
    }

    /** Moves to the renewed certificate once no command is running, so no result is lost. */
    private void reconnectIfRenewed() {
      boolean reconnect;
      synchronized (this) {
        reconnect = renewed && commands.idle();
      }
      if (reconnect) {
        synchronized (this) {
          if (!ended.isDone() && outbound != null) {
            try {
              outbound.onCompleted();
            } catch (RuntimeException alreadyGone) {
              // the stream ended meanwhile; the reconnect happens anyway
            }
          }
        }
        end(StreamEnd.RENEWED, "reconnecting with the renewed certificate");
      }
    }

    synchronized void sendObserved(ObservedState observed, boolean always) {
      if (always || !observed.equals(sentObserved)) {
        if (send(MiteMessage.newBuilder().setObserved(observed).build())) {
          sentObserved = observed;
        }
      }
    }

    /** Sends one message; false when the stream has ended. */
    @Override
    public synchronized boolean send(MiteMessage message) {
      if (ended.isDone() || outbound == null) {
        return false;
      }
      try {
        outbound.onNext(message);
        return true;
      } catch (RuntimeException e) {
        end(StreamEnd.BROKEN, "send failed: " + e.getClass().getSimpleName());
        return false;
      }
    }

    void end(StreamEnd how, String reason) {
      if (!ended.complete(how)) {
        return;
      }
      synchronized (this) {
        scheduled.forEach(f -> f.cancel(false));
        if (how == StreamEnd.STOPPED && outbound != null) {
          try {
            outbound.onError(Status.CANCELLED.withDescription("mite stopping").asRuntimeException());
          } catch (RuntimeException alreadyGone) {
            // nothing left to cancel
          }
        }
      }
      if (welcomed) {
        users.forEach(user -> user.ended(this));
      }
      if (welcomed || how != StreamEnd.STOPPED) {
        LOG.info("event=stream_ended gateway_id={} gateway_endpoint={} end={} {}", gatewayId, endpoint, how,
            reason.startsWith("code=") ? reason : "reason=\"" + reason + "\"");
      }
    }

    private synchronized void schedule(Runnable task, Duration delay) {
      if (ended.isDone()) {
        return;
      }
      try {
        scheduled.add(timers.schedule(task, Math.max(0, delay.toMillis()), TimeUnit.MILLISECONDS));
      } catch (RejectedExecutionException closing) {
        // the session is closing
      }
    }

    private synchronized void scheduleRepeating(Runnable task, Duration interval) {
      if (ended.isDone()) {
        return;
      }
      try {
        scheduled.add(timers.scheduleAtFixedRate(task, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS));
      } catch (RejectedExecutionException closing) {
        // the session is closing
      }
    }
  }

  // a stream's renewal timer lies days ahead; cancelled with the stream, it must not stay queued until then
  private static ScheduledThreadPoolExecutor timers() {
    ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(1, GatewayChannels.daemonThreads("mite-timers"));
    timers.setRemoveOnCancelPolicy(true);
    return timers;
  }

  /** Half the certificate's life, give or take a little, after it was issued. */
  static Instant renewAt(MiteIdentity id) {
    double share = RENEW_AT_LIFETIME_SHARE
        + (ThreadLocalRandom.current().nextDouble() * 2 - 1) * RENEW_JITTER_SHARE;
    return id.notBefore().plusMillis((long) (id.lifetime().toMillis() * share));
  }

  private static String oneLine(String text) {
    return text == null ? "" : text.replaceAll("[\\r\\n\"]+", " ").strip();
  }
}
