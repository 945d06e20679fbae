package dev.varroa.operator;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.protocol.http.LimitedHttpServer;
import dev.varroa.protocol.http.ListenerLimits;
import dev.varroa.operator.apply.OwnedObjectApplier;
import dev.varroa.operator.bundle.BundleComposers;
import dev.varroa.operator.bundle.ComposedBundleReconciler;
import dev.varroa.operator.catalog.CatalogSourceReconciler;
import dev.varroa.operator.controller.ControllerActivity;
import dev.varroa.operator.controller.ControllerReconciler;
import dev.varroa.operator.hibernation.HibernationSettings;
import dev.varroa.operator.hibernation.JobSchedules;
import dev.varroa.operator.hibernation.RecorderJobSchedules;
import dev.varroa.operator.hibernation.Waker;
import dev.varroa.operator.hooks.ReconcilerPushTargets;
import dev.varroa.operator.hooks.WebhookReceiver;
import dev.varroa.operator.hooks.WebhookSecret;
import dev.varroa.operator.hooks.WebhookSettings;
import dev.varroa.operator.install.InstallationSecrets;
import dev.varroa.operator.install.InstallationSettings;
import dev.varroa.operator.install.InstallationOwner;
import dev.varroa.operator.install.LeaderPodLabel;
import dev.varroa.operator.profile.JenkinsVersionProfileReconciler;
import dev.varroa.operator.render.InstallationDefaults;
import dev.varroa.operator.updatecenter.ManagedUpdateCenterSettings;
import dev.varroa.operator.updatecenter.UpdateCenterReconciler;
import dev.varroa.operator.status.EventRecorder;
import dev.varroa.protocol.ReleaseVersion;
import dev.varroa.protocol.bus.ActivityPublisher;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.nats.client.Connection;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.Set;
import java.util.stream.Collectors;
import dev.varroa.operator.channel.ChannelSettings;
import dev.varroa.operator.access.AccessPolicyPublisher;
import dev.varroa.operator.cluster.ClusterBeacon;
import dev.varroa.operator.cluster.ClusterRole;
import dev.varroa.operator.cluster.ControllerDetailResponder;
import dev.varroa.operator.cluster.ControllerListResponder;
import dev.varroa.operator.channel.ControlChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Varroa operator: one reconciler per kind on java-operator-sdk, leader election, and an HTTP
 * endpoint with /healthz, /readyz and Prometheus /metrics.
 */
public final class VarroaOperator implements AutoCloseable {
  /** The Lease that elects the one active replica. */
  public static final String LEASE_NAME = "varroa-operator";
  /** Port of /healthz, /readyz and /metrics. */
  public static final int DEFAULT_HTTP_PORT = 8081;
  /** The global activity kind each operator replica publishes once it started. */
  public static final String STARTED = "operator.started";
  /** A local run's cluster name when VARROA_CLUSTER_NAME is unset, as the gateway's and the recorder's. */
  public static final String LOCAL_CLUSTER_NAME = "local";

  private static final Logger LOG = LoggerFactory.getLogger(VarroaOperator.class);

  private final Operator operator;
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final BundleComposers composers;
  private final ControllerReconciler controllers;
  private final ComposedBundleReconciler bundles;
  private final CatalogSourceReconciler catalogSources;
  private final ControlChannel channel;
  private final KubernetesClient client;
  private final ActivityPublisher activity;
  private LimitedHttpServer http;
  private WebhookReceiver webhooks;
  private Waker waker;
  private final HibernationSettings hibernation;
  private SharedIndexInformer<Controller> controllerCache;
  private ControllerListResponder controllerRows;
  private ClusterBeacon clusterBeacon;
  private ControllerDetailResponder controllerDetails;
  private AccessPolicyPublisher accessPolicy;

  /**
   * @param client the API server connection
   * @param cacheDirectory where Git sources are cached
   * @param leaseNamespace namespace of the leader-election Lease; null runs without election (tests, one replica)
   */
  public VarroaOperator(KubernetesClient client, Path cacheDirectory, String leaseNamespace) {
    this(client, cacheDirectory, leaseNamespace, null);
  }

  /**
   * @param channel the control channel to the mites, owned by the operator from now on; null runs without one
   */
  public VarroaOperator(KubernetesClient client, Path cacheDirectory, String leaseNamespace, ControlChannel channel) {
    this(client, cacheDirectory, leaseNamespace, channel, Set.of());
  }

  /** @param plainHttpRegistries OCI registries (host:port) bundles are read from over plain HTTP */
  public VarroaOperator(KubernetesClient client, Path cacheDirectory, String leaseNamespace, ControlChannel channel,
      Set<String> plainHttpRegistries) {
    this(client, cacheDirectory, leaseNamespace, channel, plainHttpRegistries,
        ManagedUpdateCenterSettings.fromEnv(System.getenv()));
  }

  /** @param updateCenters where and how managed UpdateCenters run (namespace, default image, status poll) */
  public VarroaOperator(KubernetesClient client, Path cacheDirectory, String leaseNamespace, ControlChannel channel,
      Set<String> plainHttpRegistries, ManagedUpdateCenterSettings updateCenters) {
    this(client, cacheDirectory, leaseNamespace, channel, plainHttpRegistries, updateCenters, Optional.empty(),
        InstallationDefaults.none());
  }

  /**
   * @param leaderLabel marks this replica's pod while it holds the lease (an installed operator); empty in tests
   * @param installation what the chart's values give every Controller (mite image, plugin download URL)
   */
  public VarroaOperator(KubernetesClient client, Path cacheDirectory, String leaseNamespace, ControlChannel channel,
      Set<String> plainHttpRegistries, ManagedUpdateCenterSettings updateCenters, Optional<LeaderPodLabel> leaderLabel,
      InstallationDefaults installation) {
    this(client, cacheDirectory, leaseNamespace, channel, plainHttpRegistries, updateCenters, leaderLabel, installation,
        activityOn(channel, channel == null ? clusterName(System.getenv(), Optional.empty()) : channel.cluster()));
  }

  /** @param activity where the operator publishes activity (docs/activity.md); built from the channel in main */
  public VarroaOperator(KubernetesClient client, Path cacheDirectory, String leaseNamespace, ControlChannel channel,
      Set<String> plainHttpRegistries, ManagedUpdateCenterSettings updateCenters, Optional<LeaderPodLabel> leaderLabel,
      InstallationDefaults installation, ActivityPublisher activity) {
    this(client, cacheDirectory, leaseNamespace, channel, plainHttpRegistries, updateCenters, leaderLabel, installation,
        activity, HibernationSettings.withoutWakerService());
  }

  /** @param hibernation where the waker is, whose endpoints a parked Controller's Service lists (docs/hibernation.md) */
  public VarroaOperator(KubernetesClient client, Path cacheDirectory, String leaseNamespace, ControlChannel channel,
      Set<String> plainHttpRegistries, ManagedUpdateCenterSettings updateCenters, Optional<LeaderPodLabel> leaderLabel,
      InstallationDefaults installation, ActivityPublisher activity, HibernationSettings hibernation) {
    this.activity = activity;
    this.hibernation = hibernation;
    this.channel = channel;
    this.client = client;
    this.composers = new BundleComposers(client, cacheDirectory, plainHttpRegistries);
    this.operator = new Operator(o -> {
      o.withKubernetesClient(client).withMetrics(MicrometerMetrics.withoutPerResourceMetrics(registry))
          .withCloseClientOnStop(false);
      if (leaseNamespace != null) {
        LeaderElectionConfigurationBuilder election = LeaderElectionConfigurationBuilder
            .aLeaderElectionConfiguration(LEASE_NAME).withLeaseNamespace(leaseNamespace);
        leaderLabel.ifPresent(label -> election.withIdentity(label.podName()).withLeaderCallbacks(label.callbacks()));
        // An installed replica that loses the lease exits and restarts as a follower; in-process runs (tests) stop.
        election.withExitOnStopLeading(leaderLabel.isPresent());
        o.withLeaderElectionConfiguration(election.build());
      }
    });
    Clock clock = Clock.systemUTC();
    this.bundles = new ComposedBundleReconciler(composers, clock);
    operator.register(bundles);
    operator.register(new JenkinsVersionProfileReconciler(clock));
    this.catalogSources = new CatalogSourceReconciler(composers, clock);
    operator.register(catalogSources);
    this.controllers = new ControllerReconciler(clock, channel, installation, new ControllerActivity(activity),
        hibernation, channel == null ? JobSchedules.NONE : new RecorderJobSchedules(channel::connection,
            activity.cluster(), RecorderJobSchedules.ANSWER_WAIT));
    operator.register(controllers);
    operator.register(new UpdateCenterReconciler(updateCenters, clock));
  }

  public void start() {
    operator.start();
    activity.global(STARTED, "operator started", Map.of("version", ReleaseVersion.CURRENT));
  }

  /**
   * The cluster activity is published under: the installation's (VARROA_CLUSTER_NAME, default core), or for a local
   * run VARROA_CLUSTER_NAME or {@value #LOCAL_CLUSTER_NAME}, as the gateway and the recorder default it.
   */
  public static String clusterName(Map<String, String> env, Optional<InstallationSettings> installation) {
    if (installation.isPresent() && !installation.get().clusterName().isBlank()) {
      return installation.get().clusterName().strip();
    }
    String named = env.get(InstallationSettings.ENV_CLUSTER_NAME);
    return named == null || named.isBlank() ? LOCAL_CLUSTER_NAME : named.strip();
  }

  /** Activity on the channel's NATS connection; without a channel every event is dropped (and counted). */
  public static ActivityPublisher activityOn(ControlChannel channel, String cluster) {
    return channel == null ? ActivityPublisher.withoutBus(cluster, ControllerReconciler.ACTOR)
        : new ActivityPublisher(channel::connection, cluster, ControllerReconciler.ACTOR, Clock.systemUTC());
  }

  /**
   * Registers this cluster in varroa_clusters (refreshed every 10 s) and answers the BFF's requests for its
   * controller rows from a Controller cache, over the control channel's NATS connection.
   */
  public synchronized void registerCluster(String cluster, ClusterRole role) {
    if (channel == null) {
      throw new IllegalStateException("the cluster registry needs the control channel's NATS connection");
    }
    registerCluster(cluster, role, channel::connection);
  }

  /** @param bus the NATS connection in use now (a test's own, or the control channel's) */
  public synchronized void registerCluster(String cluster, ClusterRole role, Supplier<Connection> bus) {
    controllerCache = client.resources(Controller.class).inAnyNamespace().inform();
    controllerRows = new ControllerListResponder(bus.get(), cluster, controllerCache.getStore()::list);
    controllerRows.start();
    controllerDetails = new ControllerDetailResponder(bus.get(), cluster, controllers::detail);
    controllerDetails.start();
    if (role != ClusterRole.MEMBER) {
      // the BFF authorizes with the core's VarroaRoles; a member's would be ignored
      accessPolicy = new AccessPolicyPublisher(bus, client, Clock.systemUTC());
      accessPolicy.start();
    }
    String kubernetesVersion = kubernetesVersion();
    clusterBeacon = new ClusterBeacon(bus, cluster, role, () -> kubernetesVersion,
        controllerCache.getStore()::list, Clock.systemUTC());
    clusterBeacon.start();
  }

  private String kubernetesVersion() {
    try {
      return client.getKubernetesVersion().getGitVersion();
    } catch (RuntimeException e) {
      LOG.warn("event=kubernetes_version_unknown error=\"{}\"", e.getMessage());
      return "";
    }
  }

  /** Serves /healthz, /readyz and /metrics on the port (0 picks a free one); returns the port. */
  public int serveHttp(int port) throws IOException {
    http = LimitedHttpServer.bind("operator-http", new InetSocketAddress(port), ListenerLimits.PROBES);
    http.route("/healthz", exchange -> respond(exchange, 200, "ok\n"));
    http.route("/readyz", exchange -> {
      boolean ready = operator.getRuntimeInfo().allEventSourcesAreHealthy();
      respond(exchange, ready ? 200 : 503, ready ? "ok\n" : "event sources not healthy\n");
    });
    http.route("/metrics", exchange -> respond(exchange, 200, registry.scrape()));
    http.start();
    return http.port();
  }

  /**
   * Serves POST /hooks/git and /hooks/registry on their own port (0 picks a free one): an authentic push
   * re-checks the bundles and catalog sources that follow what moved. Returns the port.
   */
  public int serveWebhooks(int port, WebhookSecret secret) throws IOException {
    webhooks = WebhookReceiver.start(port, secret, new ReconcilerPushTargets(bundles, catalogSources,
        new EventRecorder(client, OwnedObjectApplier.FIELD_MANAGER)));
    return webhooks.port();
  }

  /**
   * Serves the waker on its own port (0 picks a free one), on every replica: while a Controller is parked its Service
   * sends Jenkins' HTTP traffic here (docs/hibernation.md). Returns the port.
   */
  public synchronized int serveWaker(int port) throws IOException {
    waker = Waker.start(client, port, hibernation, Clock.systemUTC());
    return waker.port();
  }

  /** The Controller reconciler, whose completed passes tests count. */
  public ControllerReconciler controllers() {
    return controllers;
  }

  /** The ComposedBundle reconciler, which push notifications ask to re-check a bundle's sources. */
  public ComposedBundleReconciler bundles() {
    return bundles;
  }

  /** The CatalogSource reconciler, which push notifications ask to re-index a catalog. */
  public CatalogSourceReconciler catalogSources() {
    return catalogSources;
  }

  /** The composers of every namespace, shared with reconcilers and tests. */
  public BundleComposers composers() {
    return composers;
  }

  @Override
  public void close() {
    synchronized (this) {
      if (clusterBeacon != null) {
        clusterBeacon.close();
      }
      if (controllerRows != null) {
        controllerRows.close();
      }
      if (controllerDetails != null) {
        controllerDetails.close();
      }
      if (accessPolicy != null) {
        accessPolicy.close();
      }
      if (controllerCache != null) {
        controllerCache.close();
      }
      if (waker != null) {
        waker.close();
      }
    }
    if (http != null) {
      http.close();
    }
    if (webhooks != null) {
      webhooks.close();
    }
    operator.stop();
    if (channel != null) {
      try {
        channel.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static void respond(com.sun.net.httpserver.HttpExchange exchange, int code, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  public static void main(String[] args) throws Exception {
    if (ReleaseVersion.requested(args)) {
      System.out.println(ReleaseVersion.line("operator"));
      return;
    }
    Map<String, String> env = System.getenv();
    KubernetesClient client = new KubernetesClientBuilder().build();
    String namespace = env.getOrDefault("POD_NAMESPACE", "varroa-system");
    // An empty VARROA_LEASE_NAMESPACE runs without leader election, for a single local replica.
    String lease = env.getOrDefault("VARROA_LEASE_NAMESPACE", namespace);
    Path cache = Path.of(env.getOrDefault("VARROA_CACHE_DIR", "/var/cache/varroa"));
    Optional<InstallationSettings> installation = InstallationSettings.fromEnv(env, namespace);
    Optional<ChannelSettings> settings;
    if (installation.isPresent()) {
      // Before anything else: the gateway and NATS pods wait for these Secrets.
      InstallationSecrets.Material material =
          new InstallationSecrets(client, installation.get(), Clock.systemUTC()).ensure();
      settings = ChannelSettings.forInstallation(env, client, installation.get(), material);
    } else {
      settings = ChannelSettings.fromEnv(env);
    }
    int httpPort = Integer.parseInt(env.getOrDefault("VARROA_HTTP_PORT", String.valueOf(DEFAULT_HTTP_PORT)));
    ControlChannel channel = null;
    if (settings.isPresent()) {
      try (WaitingHealthEndpoint waiting = WaitingHealthEndpoint.serve(httpPort, "NATS")) {
        channel = settings.get().open(clusterName(env, installation), Clock.systemUTC());
      }
    }
    if (channel == null) {
      LOG.warn("event=control_channel_off reason=\"VARROA_NATS_URL is not set\" effect=\"no bootstrap tokens, no desired-state push\"");
    }
    Set<String> plainHttp = Arrays.stream(env.getOrDefault("VARROA_PLAIN_HTTP_REGISTRIES", "").split(","))
        .map(String::strip).filter(r -> !r.isEmpty()).collect(Collectors.toSet());
    Optional<LeaderPodLabel> leaderLabel = Optional.ofNullable(env.get("POD_NAME")).filter(n -> !n.isBlank())
        .map(pod -> new LeaderPodLabel(client, namespace, pod,
            () -> new InstallationOwner(client, lease).adoptLease(LEASE_NAME)));
    HibernationSettings hibernation = HibernationSettings.fromEnv(env, Optional.of(namespace));
    VarroaOperator operator = new VarroaOperator(client, cache, lease.isBlank() ? null : lease, channel, plainHttp,
        ManagedUpdateCenterSettings.fromEnv(env), leaderLabel,
        InstallationDefaults.fromEnv(env), activityOn(channel, clusterName(env, installation)), hibernation);
    int port = operator.serveHttp(httpPort);
    WebhookSettings hooks = WebhookSettings.fromEnv(env);
    int hooksPort = operator.serveWebhooks(hooks.port(), hooks.secret(client, namespace));
    int wakerPort = operator.serveWaker(hibernation.wakerPort());
    Runtime.getRuntime().addShutdownHook(new Thread(operator::close, "operator-shutdown"));
    operator.start();
    if (channel != null) {
      operator.registerCluster(clusterName(env, installation), ClusterRole.of(installation));
    }
    LOG.info("event=operator_started http_port={} webhooks_port={} waker_port={} lease_namespace={}", port, hooksPort,
        wakerPort, namespace);
  }
}
