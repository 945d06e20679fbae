package dev.varroa.gateway;

import dev.varroa.gateway.builds.BuildEventPublisher;
import dev.varroa.gateway.builds.LedgerClaimRelay;
import dev.varroa.protocol.DurationText;
import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.protocol.bus.BusCredentialFiles;
import dev.varroa.protocol.bus.BusTrust;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.gateway.ca.IssuedCertificate;
import dev.varroa.gateway.command.CommandRelay;
import dev.varroa.gateway.command.QueuedCommandRunner;
import dev.varroa.gateway.registration.RegistrationService;
import dev.varroa.gateway.stream.LogAppendRelay;
import dev.varroa.gateway.stream.MiteActivity;
import dev.varroa.gateway.stream.MiteChannelService;
import dev.varroa.gateway.stream.MiteSessions;
import dev.varroa.gateway.stream.PresenceBeacon;
import dev.varroa.gateway.stream.RouteTable;
import dev.varroa.gateway.stream.StreamDegradation;
import dev.varroa.gateway.tls.PeerIdentityInterceptor;
import dev.varroa.gateway.tls.ServerTls;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.recorder.logs.LogChunkAppender;
import dev.varroa.recorder.logs.LogStore;
import dev.varroa.recorder.logs.LogStores;
import dev.varroa.protocol.ReleaseVersion;
import dev.varroa.protocol.bus.ActivityPublisher;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.nats.client.JetStreamApiException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running gateway: one TLS port serving Registration and MiteChannel, and its NATS side (command
 * requests, queued one-shot commands, routes and presence).
 */
public final class Gateway implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);
  /** A self-issued server certificate is renewed by restarting the gateway well before this. */
  static final Duration SERVER_CERTIFICATE_LIFETIME = Duration.ofDays(365);
  static final Duration GRACEFUL_STOP = Duration.ofSeconds(10);
  private static final Duration STARTUP_FLUSH = Duration.ofSeconds(5);
  private static final int TIMER_THREADS = 2;
  /** Log chunks are written by this many threads whatever the number of streams (the postgres tier's pool size). */
  static final int LOG_WRITER_THREADS = 8;

  private final GatewaySettings settings;
  private final Server server;
  private final BusConnection bus;
  private final MiteSessions sessions;
  private final PresenceBeacon presence;
  private final ScheduledExecutorService timers;
  private final ExecutorService pool;
  private final ExecutorService logWriters;
  private final Optional<LogStore> logStore;
  private final AtomicBoolean crashed;
  private final AtomicBoolean stopped = new AtomicBoolean();

  private Gateway(GatewaySettings settings, Server server, BusConnection bus, MiteSessions sessions,
      PresenceBeacon presence, ScheduledExecutorService timers, ExecutorService pool, ExecutorService logWriters,
      Optional<LogStore> logStore, AtomicBoolean crashed) {
    this.settings = settings;
    this.server = server;
    this.bus = bus;
    this.sessions = sessions;
    this.presence = presence;
    this.timers = timers;
    this.pool = pool;
    this.logWriters = logWriters;
    this.logStore = logStore;
    this.crashed = crashed;
  }

  /** Loads the CA, connects to NATS (must be reachable now), and opens the port; returns once it serves. */
  public static Gateway start(GatewaySettings settings) throws IOException, InterruptedException {
    String id = settings.gatewayId();
    Clock clock = Clock.systemUTC();
    CertificateAuthority ca = CertificateAuthority.load(settings.caCertFile(), settings.caKeyFile());
    var tls = serverTls(settings, ca);
    BusConnection bus = BusConnection.open("gateway-" + id, settings.natsUrl(),
        new BusCredentialFiles(settings.natsUser(), settings.natsUserFile(), settings.natsPasswordFile()),
        settings.natsCaFile() == null ? null : BusTrust.trusting(
            Files.readString(settings.natsCaFile(), StandardCharsets.US_ASCII), settings.natsCaFile().toString()),
        BusNames.gatewayInboxPrefix(settings.clusterName()));
    ScheduledExecutorService timers = Executors.newScheduledThreadPool(TIMER_THREADS, daemon("varroa-timer-" + id));
    ExecutorService pool = Executors.newCachedThreadPool(daemon("varroa-work-" + id));
    ExecutorService logWriters = Executors.newFixedThreadPool(LOG_WRITER_THREADS, daemon("varroa-logs-" + id));
    Optional<LogStore> logStore = Optional.empty();
    try {
      // Built without a request: a store that is not reachable yet answers UNAVAILABLE until it is.
      logStore = LogStores.open(settings.blobStore(), "varroa-gateway");
      LogAppendRelay logs = new LogAppendRelay(id, settings.clusterName(), new LogChunkAppender(logStore),
          bus, logWriters, clock);
      BusTopology.ensure(bus.connection());
      AtomicBoolean crashed = new AtomicBoolean();
      MiteSessions sessions = new MiteSessions();
      StreamDegradation degradation = new StreamDegradation(id);
      RouteTable routes = new RouteTable(bus, id, degradation);
      degradation.onChange(reason -> routes.refreshAll(sessions));
      PresenceBeacon presence = new PresenceBeacon(bus, id, sessions, clock);
      ActivityPublisher activityPublisher = new ActivityPublisher(bus::connection, settings.clusterName(), "gateway/" + id,
          clock);
      QueuedCommandRunner queued = new QueuedCommandRunner(id, settings.clusterName(), bus, sessions, settings.queuedCommandAckWait(),
          settings.ackProgressInterval(), pool, timers, clock, activityPublisher);
      CommandRelay relay = new CommandRelay(id, settings.clusterName(), bus, sessions, pool, clock);
      BuildEventPublisher events = new BuildEventPublisher(bus, id, settings.eventPublishWait(), timers, pool);
      LedgerClaimRelay claims = new LedgerClaimRelay(bus, id, settings.clusterName(), settings.claimLedgerWait(), pool);
      MiteActivity activity = new MiteActivity(activityPublisher, id);
      MiteChannelService channel = new MiteChannelService(id, settings.heartbeatInterval(), sessions, routes, ca, bus,
          timers, pool, clock, queued::sessionStarted, crashed::get, settings.clusterName(), events, claims, logs,
          activity);

      presence.refresh();
      bus.addListener(degradation);
      bus.addListener(relay);
      bus.addListener(queued);
      // Subscriptions are on the server before the port opens, so no command finds this gateway deaf.
      bus.connection().flush(STARTUP_FLUSH);
      long refresh = PresenceBeacon.PRESENCE_REFRESH_INTERVAL.toMillis();
      timers.scheduleAtFixedRate(presence::refresh, refresh, refresh, TimeUnit.MILLISECONDS);

      Server server = NettyServerBuilder.forAddress(new InetSocketAddress(settings.listenHost(), settings.listenPort()))
          .sslContext(ServerTls.context(tls.chainPem(), tls.keyPem(), ca))
          .addService(new RegistrationService(id, ca, bus, clock))
          .addService(ServerInterceptors.intercept(channel, new PeerIdentityInterceptor(clock)))
          .build()
          .start();
      LOG.info("event=gateway_started gateway={} listen={}:{} nats={} cluster={} eventPublishWait=\"{}\" "
          + "claimLedgerWait=\"{}\"", id, settings.listenHost(), server.getPort(), settings.natsUrl(),
          settings.clusterName(), DurationText.seconds(settings.eventPublishWait()),
          DurationText.seconds(settings.claimLedgerWait()));
      if (logStore.isPresent()) {
        LOG.info("gateway log writer enabled {} gateway={} writers={}", settings.blobStore().describe(), id,
            LOG_WRITER_THREADS);
      } else {
        LOG.info("event=gateway_log_writer_disabled gateway={} reason=\"VARROA_BLOB_MODE is unset: every log chunk "
            + "is answered NOT_STORED\"", id);
      }
      activity.gatewayStarted(ReleaseVersion.CURRENT);
      return new Gateway(settings, server, bus, sessions, presence, timers, pool, logWriters, logStore, crashed);
    } catch (IOException | JetStreamApiException | TimeoutException | RuntimeException e) {
      timers.shutdownNow();
      pool.shutdownNow();
      logWriters.shutdownNow();
      logStore.ifPresent(LogStore::close);
      bus.close();
      if (e instanceof IOException io) {
        throw io;
      }
      throw new IOException("gateway " + id + " could not start: " + e.getMessage(), e);
    }
  }

  public int port() {
    return server.getPort();
  }

  public String gatewayId() {
    return settings.gatewayId();
  }

  /** The cluster name this gateway serves (VARROA_CLUSTER_NAME): its control subjects carry it. */
  public String clusterName() {
    return settings.clusterName();
  }

  /** Whether the NATS connection is up right now (jnats reconnects by itself while it is not). */
  public boolean natsConnected() {
    return bus.isConnected();
  }

  /** Graceful stop: refuses new calls, ends every stream, deletes its routes and presence, closes NATS. */
  @Override
  public void close() throws InterruptedException {
    if (!stopped.compareAndSet(false, true)) {
      return;
    }
    LOG.info("event=gateway_stopping gateway={} streams={}", gatewayId(), sessions.size());
    server.shutdown();
    sessions.closeAll(Status.UNAVAILABLE.withDescription("gateway " + gatewayId()
        + " is shutting down: reconnect, another replica takes the stream"), GRACEFUL_STOP);
    presence.withdraw();
    if (!server.awaitTermination(GRACEFUL_STOP.toMillis(), TimeUnit.MILLISECONDS)) {
      server.shutdownNow();
    }
    timers.shutdownNow();
    pool.shutdown();
    // Writes in flight land before the store closes; their answers have no stream left to go to.
    logWriters.shutdown();
    logWriters.awaitTermination(GRACEFUL_STOP.toMillis(), TimeUnit.MILLISECONDS);
    logStore.ifPresent(LogStore::close);
    bus.close();
    pool.awaitTermination(GRACEFUL_STOP.toMillis(), TimeUnit.MILLISECONDS);
    LOG.info("event=gateway_stopped gateway={}", gatewayId());
  }

  /** For tests: stops the way a killed process does, leaving routes and presence behind on the bus. */
  public void crash() throws InterruptedException {
    if (!stopped.compareAndSet(false, true)) {
      return;
    }
    crashed.set(true);
    bus.abort();
    server.shutdownNow();
    timers.shutdownNow();
    pool.shutdownNow();
    logWriters.shutdownNow();
    server.awaitTermination(GRACEFUL_STOP.toMillis(), TimeUnit.MILLISECONDS);
    logWriters.awaitTermination(GRACEFUL_STOP.toMillis(), TimeUnit.MILLISECONDS);
    logStore.ifPresent(LogStore::close);
    LOG.info("event=gateway_crashed gateway={}", gatewayId());
  }

  private record TlsMaterial(String chainPem, String keyPem) {
    @Override
    public String toString() {
      return "TlsMaterial[key=***]";
    }
  }

  private static TlsMaterial serverTls(GatewaySettings settings, CertificateAuthority ca) throws IOException {
    if (settings.tlsCertFile() != null) {
      return new TlsMaterial(Files.readString(settings.tlsCertFile(), StandardCharsets.US_ASCII),
          Files.readString(settings.tlsKeyFile(), StandardCharsets.US_ASCII));
    }
    IssuedCertificate own = ca.issueServerCertificate(settings.tlsDnsNames(), settings.tlsIpAddresses(),
        SERVER_CERTIFICATE_LIFETIME);
    LOG.info("event=server_certificate_issued gateway={} dnsNames={} ipAddresses={} notAfter={}",
        settings.gatewayId(), settings.tlsDnsNames(), settings.tlsIpAddresses(), own.notAfter());
    return new TlsMaterial(own.certificateChainPem(), own.privateKeyPem());
  }

  private static ThreadFactory daemon(String prefix) {
    AtomicInteger counter = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

}
