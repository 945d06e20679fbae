package dev.varroa.mite;

import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.ObservedState;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running mite: health listener, loopback token and listener (events, claims, logs, drain), JCasC seed, and
 * the control channel to the gateways. {@link #start(MiteSettings)} returns at once; registration and the stream run in the
 * background and retry until {@link #close()}.
 */
public final class Mite implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Mite.class);

  static {
    // The JDK's HTTP server leaves Nagle on by default: a response written as headers then body would wait for the
    // client's delayed ACK (about 40 ms on Linux), which alone would spend the loopback claim budget many times over.
    // Read once, when the server's configuration class loads, so it is set before either listener exists.
    if (System.getProperty("sun.net.httpserver.nodelay") == null) {
      System.setProperty("sun.net.httpserver.nodelay", "true");
    }
  }

  private final StopSignal stop;
  private final HealthListener health;
  private final LoopbackListener loopback;
  private final EventRetention retention;
  private final SchedulePoller schedules;
  private final CommandRunner commands;
  private final ChannelSession session;
  private final GatewayChannels channels;
  private final JenkinsBearer bearer;
  private final AtomicBoolean firstDesiredStateApplied;

  private Mite(StopSignal stop, HealthListener health, LoopbackListener loopback, EventRetention retention,
      SchedulePoller schedules, CommandRunner commands, ChannelSession session, GatewayChannels channels,
      JenkinsBearer bearer, AtomicBoolean firstDesiredStateApplied) {
    this.stop = stop;
    this.health = health;
    this.loopback = loopback;
    this.retention = retention;
    this.schedules = schedules;
    this.commands = commands;
    this.session = session;
    this.channels = channels;
    this.bearer = bearer;
    this.firstDesiredStateApplied = firstDesiredStateApplied;
  }

  /** Starts the mite; throws when a local folder, the health port or the loopback port cannot be used. */
  public static Mite start(MiteSettings settings) throws IOException {
    Clock clock = Clock.systemUTC();
    StopSignal stop = new StopSignal();
    LOG.info("event=starting mite_version={} controller={} pod={} gateways={} jenkins_url={}", MiteVersion.CURRENT,
        settings.controller(), settings.podName(), settings.gatewayEndpoints(), settings.jenkinsUrl());

    // the token is on disk before the loopback listener opens: no request can come before it exists
    LoopbackToken loopbackToken = LoopbackToken.writeNew(settings.loopbackDir());
    CascSeed.seedIfEmpty(settings.cascSeedDir(), settings.cascDir());
    Files.createDirectories(settings.secretsDir());
    Files.createDirectories(settings.identityDir());

    JenkinsBearer bearer = new JenkinsBearer(clock);
    JenkinsClient jenkins = new JenkinsClient(settings.jenkinsUrl(), bearer, clock);
    JenkinsActions actions = new JenkinsActions(jenkins, clock);
    DesiredStateApplier applier = new DesiredStateApplier(settings.cascDir(), settings.secretsDir(), actions, bearer,
        clock);
    AtomicReference<String> appliedDigest = new AtomicReference<>("");
    AtomicBoolean firstApplied = new AtomicBoolean();
    DeliveryReplay replay = new DeliveryReplay(jenkins, clock);
    JobRuns jobs = new JobRuns(jenkins, clock);
    CommandRunner commands = new CommandRunner(applier, actions, replay, jobs, clock, (command, result) -> {
      if (command.hasDesiredState() && result.getOutcome() == CommandResult.Outcome.SUCCEEDED) {
        appliedDigest.set(command.getDesiredState().getBundleDigest());
        if (firstApplied.compareAndSet(false, true)) {
          LOG.info("event=ready reason=first_desired_state_applied bundle_digest={}", appliedDigest.get());
        }
      }
    });

    Instant readyAnyway = clock.instant().plus(settings.startupWait());
    AtomicBoolean waitLogged = new AtomicBoolean();
    HealthListener health;
    try {
      health = new HealthListener(settings.healthPort(), () -> {
        if (firstApplied.get()) {
          return true;
        }
        boolean waitedEnough = !clock.instant().isBefore(readyAnyway);
        if (waitedEnough && waitLogged.compareAndSet(false, true)) {
          LOG.warn("event=ready reason=startup_wait_passed startup_wait_s={}", settings.startupWait().toSeconds());
        }
        return waitedEnough;
      });
    } catch (IOException e) {
      commands.close();
      throw new IOException("cannot listen on 0.0.0.0:" + settings.healthPort() + " (VARROA_HEALTH_PORT): "
          + e.getMessage(), e);
    }

    // the plugin's listener runs whether the claim gate is on or not: events flow either way
    EventRetention retention = new EventRetention(settings.eventRetainBytes(), clock);
    ClaimRelay claims = new ClaimRelay(settings.claimReplyWait());
    LogAppendRelay logs = new LogAppendRelay(settings.logAppendWait());
    // a cross-tenant call is one more short question to the core: the claim's budget
    PipelineCallRelay calls = new PipelineCallRelay(settings.claimReplyWait());
    SchedulePoller schedules = new SchedulePoller(jenkins, settings.schedulePollInterval(), clock);
    LoopbackListener loopback;
    try {
      loopback = new LoopbackListener(settings.loopbackPort(), loopbackToken, retention, claims, logs, calls,
          new BuildDrain(jenkins, settings.drainTimeout(), stop, clock), clock);
    } catch (IOException e) {
      commands.close();
      health.close();
      retention.close();
      schedules.close();
      throw new IOException("cannot listen on " + LoopbackListener.HOST + ":" + settings.loopbackPort()
          + " (VARROA_LOOPBACK_PORT): " + e.getMessage(), e);
    }

    GatewayChannels channels = new GatewayChannels(settings.caFile());
    GatewayRotation gateways = new GatewayRotation(settings.gatewayEndpoints());
    IdentityStore store = new IdentityStore(settings.identityDir());
    Registrar registrar = new Registrar(settings.controller(), settings.bootstrapTokenFile(), store, channels,
        gateways, new Backoff(), stop, clock);
    ChannelSession session = new ChannelSession(settings.podName(), registrar, channels, gateways, new Backoff(), stop,
        commands, bearer, store,
        () -> jenkins.observe().toBuilder().setAppliedBundleDigest(appliedDigest.get()).build(), clock,
        List.of(retention, claims, logs, calls, schedules));
    schedules.start();
    session.start();
    LOG.info("event=started health_port={} loopback_port={} event_retain_bytes={} claim_reply_wait_ms={} "
        + "log_append_wait_ms={} schedule_poll_s={}", health.port(), loopback.port(), settings.eventRetainBytes(),
        settings.claimReplyWait().toMillis(), settings.logAppendWait().toMillis(),
        settings.schedulePollInterval().toSeconds());
    return new Mite(stop, health, loopback, retention, schedules, commands, session, channels, bearer, firstApplied);
  }

  /** True while a stream to a gateway is open and welcomed. */
  public boolean connected() {
    return session.connected();
  }

  /** The gateway holding the stream, while connected. */
  public Optional<String> gatewayId() {
    return session.gatewayId();
  }

  /** The result of the last command the mite finished. */
  public Optional<CommandResult> lastResult() {
    return commands.lastResult();
  }

  /** True when the mite holds a client certificate (registered, or reused after a restart). */
  public boolean registered() {
    return session.identity().isPresent();
  }

  /** When the client certificate expires, once the mite holds one. */
  public Optional<Instant> certificateNotAfter() {
    return session.identity().map(MiteIdentity::notAfter);
  }

  /** True once a desired state was applied (what /readyz reports, the startup wait aside). */
  public boolean desiredStateApplied() {
    return firstDesiredStateApplied.get();
  }

  /** True when the mite holds a Jenkins token (never the token itself). */
  public boolean holdsJenkinsToken() {
    return bearer.jwt().isPresent();
  }

  /** The last state the mite observed of Jenkins. */
  public ObservedState lastObserved() {
    return session.lastObserved();
  }

  /** The port the health listener is bound to (useful when settings asked for port 0). */
  public int healthPort() {
    return health.port();
  }

  /** The port the loopback listener is bound to on 127.0.0.1 (useful when settings asked for port 0). */
  public int loopbackPort() {
    return loopback.port();
  }

  /** Events held for the gateway's acknowledgement now. */
  public int retainedEvents() {
    return retention.retainedEvents();
  }

  /** Serialized bytes of the events held now; stays within VARROA_EVENT_RETAIN_BYTES. */
  public long retainedEventBytes() {
    return retention.retainedBytes();
  }

  @Override
  public void close() {
    if (stop.stopped()) {
      return;
    }
    LOG.info("event=stopping");
    stop.stop();
    loopback.close();
    schedules.close();
    session.close();
    retention.close();
    commands.close();
    health.close();
    channels.close();
  }
}
