package dev.varroa.operator;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.operator.access.AccessPolicyPublisher;
import dev.varroa.operator.actions.ActionLedger;
import dev.varroa.operator.actions.BroodOperationActions;
import dev.varroa.operator.actions.CellPoolScaleAction;
import dev.varroa.operator.actions.ClusterActionResponder;
import dev.varroa.operator.actions.ClusterDrain;
import dev.varroa.operator.actions.PipelineRunAction;
import dev.varroa.operator.actions.PipelineRunReporter;
import dev.varroa.operator.actions.PipelineRunSettings;
import dev.varroa.operator.apply.OwnedObjectApplier;
import dev.varroa.operator.bffresponders.BroodListResponder;
import dev.varroa.operator.bffresponders.CellPoolListResponder;
import dev.varroa.operator.bffresponders.ControllerDetailResponder;
import dev.varroa.operator.bffresponders.ControllerListResponder;
import dev.varroa.operator.bffresponders.ManifestCheckResponder;
import dev.varroa.operator.brood.BroodOperationReconciler;
import dev.varroa.operator.brood.BroodTargetResponder;
import dev.varroa.operator.brood.JenkinsOfController;
import dev.varroa.operator.brood.RemoteClusters;
import dev.varroa.operator.brood.TargetStepExecutor;
import dev.varroa.operator.brood.schedule.BroodScheduleReconciler;
import dev.varroa.operator.cell.CellPoolReconciler;
import dev.varroa.operator.cell.CellWakeResponder;
import dev.varroa.operator.cell.PlacementRecord;
import dev.varroa.operator.cell.RecorderTeamPlacements;
import dev.varroa.operator.cell.TeamReconciler;
import dev.varroa.operator.bundle.BundleComposers;
import dev.varroa.operator.bundle.ComposedBundleReconciler;
import dev.varroa.operator.catalog.CatalogSourceReconciler;
import dev.varroa.operator.channel.ChannelSettings;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.operator.cluster.ClusterBeacon;
import dev.varroa.operator.cluster.ClusterRole;
import dev.varroa.operator.controller.ControllerActivity;
import dev.varroa.operator.controller.ControllerReconciler;
import dev.varroa.operator.events.EventRecorder;
import dev.varroa.operator.hibernation.HibernationSettings;
import dev.varroa.operator.hibernation.JobSchedules;
import dev.varroa.operator.hibernation.RecorderJobSchedules;
import dev.varroa.operator.hibernation.Waker;
import dev.varroa.operator.hooks.ReconcilerPushTargets;
import dev.varroa.operator.hooks.WebhookReceiver;
import dev.varroa.operator.hooks.WebhookSecret;
import dev.varroa.operator.hooks.WebhookSettings;
import dev.varroa.operator.install.InstallationOwner;
import dev.varroa.operator.install.InstallationSecrets;
import dev.varroa.operator.install.InstallationSettings;
import dev.varroa.operator.install.InstalledChannelSettings;
import dev.varroa.operator.leader.LeaderPodLabel;
import dev.varroa.operator.manifests.ControllerSchema;
import dev.varroa.operator.manifests.ManifestCheck;
import dev.varroa.operator.profile.JenkinsVersionProfileReconciler;
import dev.varroa.operator.updatecenter.UpdateCenterReconciler;
import dev.varroa.protocol.ReleaseVersion;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.http.LimitedHttpServer;
import dev.varroa.protocol.http.ListenerLimits;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.nats.client.Connection;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
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
  private final Clock clock;
  private SharedIndexInformer<Controller> controllerCache;
  private final Object controllerCacheLock = new Object();
  private ControllerListResponder controllerRows;
  private BroodListResponder broodRows;
  private CellPoolListResponder cellPoolRows;
  private ClusterBeacon clusterBeacon;
  private ControllerDetailResponder controllerDetails;
  private ManifestCheckResponder manifestChecks;
  private AccessPolicyPublisher accessPolicy;
  private final String actionsNamespace;
  private ClusterDrain clusterDrain;
  private ClusterActionResponder clusterActions;
  private final TargetStepExecutor broodSteps;
  private final BroodOperationReconciler broodOperations;
  private BroodTargetResponder broodTargets;
  private CellWakeResponder cellWakes;
  /** What a push runs of Teams' pipelines; set once the control channel and the cell wakes are up. */
  private volatile dev.varroa.operator.hooks.PipelinePushes pipelinePushes =
      dev.varroa.operator.hooks.PipelinePushes.NONE;
  /** How long a pipeline run may wait for its cell (docs/actions.md); set from the environment in main. */
  private PipelineRunSettings pipelineRunSettings = PipelineRunSettings.defaults();
  private boolean broodReconcilers = true;
  private boolean cellReconcilers = true;
  private final Optional<dev.varroa.operator.cell.CellIsolation> cellIsolation;
  private final Optional<dev.varroa.operator.render.resolve.CellArtifactSettings> cellArtifacts;
  private final Optional<String> cellsRefused;

  /**
   * An operator as a test or a local run starts it: activity on the channel (dropped and counted without one), no
   * leader label, the system clock.
   *
   * @param channel the control channel to the mites, owned by the operator from now on; null runs without one
   */
  public VarroaOperator(KubernetesClient client, OperatorSettings settings, ControlChannel channel) {
    this(client, settings, channel, activityOn(channel, channel == null ? settings.clusterName() : channel.cluster(),
        Clock.systemUTC()), Optional.empty(), Clock.systemUTC());
  }

  /**
   * @param client the API server connection
   * @param settings what main read from the environment
   * @param channel the control channel to the mites, owned by the operator from now on; null runs without one
   * @param activity where the operator publishes activity (docs/activity.md); {@link #activityOn} the channel in main
   * @param leaderLabel marks this replica's pod while it holds the lease (an installed operator); empty in tests
   * @param clock the one clock every reconciler and server of this operator reads
   */
  public VarroaOperator(KubernetesClient client, OperatorSettings settings, ControlChannel channel,
      ActivityPublisher activity, Optional<LeaderPodLabel> leaderLabel, Clock clock) {
    this.activity = activity;
    this.clock = clock;
    this.hibernation = settings.controllers().hibernation();
    this.cellIsolation = settings.cellIsolation();
    this.cellArtifacts = settings.controllers().installation().cellArtifacts();
    this.cellsRefused = settings.controllers().installation().cellsRefused();
    this.channel = channel;
    this.client = client;
    // the action ledger lives beside the Lease (the pod's namespace when installed)
    this.actionsNamespace = settings.leaseNamespace()
        .orElseGet(() -> Optional.ofNullable(client.getNamespace()).orElse("default"));
    this.composers = new BundleComposers(client, settings.cacheDirectory(), settings.plainHttpRegistries());
    this.operator = new Operator(o -> {
      o.withKubernetesClient(client).withMetrics(MicrometerMetrics.withoutPerResourceMetrics(registry))
          .withCloseClientOnStop(false);
      settings.leaseNamespace().ifPresent(leaseNamespace -> {
        LeaderElectionConfigurationBuilder election = LeaderElectionConfigurationBuilder
            .aLeaderElectionConfiguration(LEASE_NAME).withLeaseNamespace(leaseNamespace);
        leaderLabel.ifPresent(label -> election.withIdentity(label.podName()).withLeaderCallbacks(label.callbacks()));
        // An installed replica that loses the lease exits and restarts as a follower; in-process runs (tests) stop.
        election.withExitOnStopLeading(leaderLabel.isPresent());
        o.withLeaderElectionConfiguration(election.build());
      });
    });
    this.bundles = new ComposedBundleReconciler(composers, clock);
    operator.register(bundles);
    operator.register(new JenkinsVersionProfileReconciler(clock));
    this.catalogSources = new CatalogSourceReconciler(composers, clock);
    operator.register(catalogSources);
    this.controllers = new ControllerReconciler(clock, settings.controllers(), channel,
        new ControllerActivity(activity), channel == null ? JobSchedules.NONE
            : new RecorderJobSchedules(channel::connection, activity.cluster(), RecorderJobSchedules.ANSWER_WAIT));
    operator.register(controllers);
    operator.register(new UpdateCenterReconciler(settings.updateCenters(), clock));
    this.broodSteps = new TargetStepExecutor(client, (namespace, name) -> Optional.ofNullable(
        controllerCache().getStore().getByKey(namespace + "/" + name)),
        channel == null ? JenkinsOfController.NONE : JenkinsOfController.of(channel), clock);
    this.broodOperations = new BroodOperationReconciler(clock, activity::cluster,
        () -> controllerCache().getStore().list(), broodSteps);
  }

  /**
   * Every Controller of this cluster, cached on every replica (the leader's reconcilers and any replica's answers to
   * the BFF and to the core's brood operations read it); started on first use.
   */
  private SharedIndexInformer<Controller> controllerCache() {
    // its own lock: reconciler threads ask while registerCluster or close may hold the operator's
    synchronized (controllerCacheLock) {
      if (controllerCache == null) {
        controllerCache = client.resources(Controller.class).inAnyNamespace().inform();
      }
      return controllerCache;
    }
  }

  /**
   * Starts without the BroodOperation and BroodSchedule reconcilers: for tests that write those objects' status
   * themselves, as the dashboard's do. Call before {@link #start}.
   */
  public VarroaOperator withoutBroodReconcilers() {
    broodReconcilers = false;
    return this;
  }

  /**
   * Starts without the CellPool and Team reconcilers: for tests that write those objects' status themselves, as the
   * dashboard's do. Call before {@link #start}.
   */
  public VarroaOperator withoutCellReconcilers() {
    cellReconcilers = false;
    return this;
  }

  public void start() {
    if (cellReconcilers) {
      // cells: each pool's Controllers, its teams' placement, drains and rolls (docs/cells.md)
      operator.register(new CellPoolReconciler(clock, channel == null ? JenkinsOfController.NONE
          : JenkinsOfController.of(channel), activity, channel == null ? PlacementRecord.NONE
          : new RecorderTeamPlacements(channel::connection, activity.cluster(), RecorderTeamPlacements.ANSWER_WAIT),
          cellIsolation).withArtifacts(cellArtifacts, actionsNamespace)
          .refusingCells(cellsRefused));
      operator.register(new TeamReconciler(clock));
    }
    if (broodReconcilers) {
      operator.register(broodOperations);
      // BroodSchedules create BroodOperations at their times (docs/brood-schedules.md)
      operator.register(new BroodScheduleReconciler(clock));
    }
    operator.start();
    activity.global(STARTED, "operator started", Map.of("version", ReleaseVersion.CURRENT));
  }

  /** Activity on the channel's NATS connection; without a channel every event is dropped (and counted). */
  public static ActivityPublisher activityOn(ControlChannel channel, String cluster, Clock clock) {
    return channel == null ? ActivityPublisher.withoutBus(cluster, ControllerReconciler.ACTOR)
        : new ActivityPublisher(channel::connection, cluster, ControllerReconciler.ACTOR, clock);
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
    controllerRows = new ControllerListResponder(bus.get(), cluster, controllerCache().getStore()::list);
    controllerRows.start();
    broodRows = BroodListResponder.informing(client, bus.get(), cluster);
    broodRows.start();
    cellPoolRows = CellPoolListResponder.informing(client, bus.get(), cluster);
    cellPoolRows.start();
    controllerDetails = new ControllerDetailResponder(bus.get(), cluster, controllers::detail);
    controllerDetails.start();
    manifestChecks = new ManifestCheckResponder(bus.get(), cluster, new ManifestCheck(ControllerSchema.load()),
        () -> controllers.inherited(cluster));
    manifestChecks.start();
    if (role != ClusterRole.MEMBER) {
      // the BFF authorizes with the core's VarroaRoles; a member's would be ignored
      accessPolicy = new AccessPolicyPublisher(bus, client, clock);
      accessPolicy.start();
    }
    String kubernetesVersion = kubernetesVersion();
    ActionLedger ledger = new ActionLedger(client, actionsNamespace, clock);
    clusterDrain = new ClusterDrain(client, ledger, activity, () -> {
      if (clusterBeacon != null) {
        clusterBeacon.refresh();
      }
    });
    clusterBeacon = new ClusterBeacon(bus, cluster, role, () -> kubernetesVersion,
        controllerCache.getStore()::list, () -> clusterDrain.state().value(), clock);
    clusterBeacon.start();
    if (role != ClusterRole.CORE) {
      // the core is never drained: no step needs to read its ledger
      clusterDrain.start();
    }
    // a pipeline run is queued on the control channel; without one the action is refused, naming why
    PipelineRunAction pipelineRuns = new PipelineRunAction(client, cluster, channel == null ? null : channel.queue(),
        new PipelineRunReporter(bus, clock), activity, pipelineRunSettings, clock);
    clusterActions = new ClusterActionResponder(bus.get(), cluster, role, ledger, clusterDrain, activity,
        new BroodOperationActions(client, cluster), new CellPoolScaleAction(client, cluster), pipelineRuns);
    clusterActions.start();
    // every cluster runs the targets the core's brood operations hand it; only the core reaches the others
    broodTargets = new BroodTargetResponder(bus.get(), cluster, broodSteps);
    broodTargets.start();
    // the core recorder's cell wakes for this cluster's teams (docs/cells.md)
    cellWakes = new CellWakeResponder(client, bus.get(), cluster, clock);
    cellWakes.start();
    if (channel != null) {
      pipelinePushes = new dev.varroa.operator.cell.PushedPipelineRuns(client, cluster, cellWakes, pipelineRuns);
    }
    if (role != ClusterRole.MEMBER) {
      broodOperations.reach(RemoteClusters.over(bus));
    }
  }

  /** How long a pipeline run's RunJob may wait for its cell; takes effect at {@link #registerCluster}. */
  public synchronized void pipelineRuns(PipelineRunSettings settings) {
    this.pipelineRunSettings = settings;
  }

  /** The drain of this cluster (docs/actions.md); null before {@link #registerCluster}. */
  public synchronized ClusterDrain clusterDrain() {
    return clusterDrain;
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
        new EventRecorder(client, OwnedObjectApplier.FIELD_MANAGER, clock), () -> pipelinePushes),
        ListenerLimits.DELIVERIES, clock);
    return webhooks.port();
  }

  /**
   * Serves the waker on its own port (0 picks a free one), on every replica: while a Controller is parked its Service
   * sends Jenkins' HTTP traffic here (docs/hibernation.md). Returns the port.
   */
  public synchronized int serveWaker(int port) throws IOException {
    waker = Waker.start(client, port, hibernation, clock);
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
      if (cellWakes != null) {
        cellWakes.close();
      }
      if (broodTargets != null) {
        broodTargets.close();
      }
      if (clusterActions != null) {
        clusterActions.close();
      }
      if (clusterDrain != null) {
        clusterDrain.close();
      }
      if (clusterBeacon != null) {
        clusterBeacon.close();
      }
      if (controllerRows != null) {
        controllerRows.close();
      }
      if (broodRows != null) {
        broodRows.close();
      }
      if (cellPoolRows != null) {
        cellPoolRows.close();
      }
      if (controllerDetails != null) {
        controllerDetails.close();
      }
      if (manifestChecks != null) {
        manifestChecks.close();
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
    Clock clock = Clock.systemUTC();
    KubernetesClient client = new KubernetesClientBuilder().build();
    String namespace = env.getOrDefault("POD_NAMESPACE", "varroa-system");
    Optional<InstallationSettings> installation = InstallationSettings.fromEnv(env, namespace);
    OperatorSettings operatorSettings = OperatorSettings.fromEnv(env, namespace, installation);
    // read before anything starts, so a bad value stops the operator at once with its message
    PipelineRunSettings pipelineRuns = PipelineRunSettings.fromEnv(env);
    Optional<ChannelSettings> settings;
    if (installation.isPresent()) {
      // Before anything else: the gateway and NATS pods wait for these Secrets.
      InstallationSecrets.Material material = new InstallationSecrets(client, installation.get(), clock).ensure();
      settings = InstalledChannelSettings.of(env, client, installation.get(), material);
    } else {
      settings = ChannelSettings.fromEnv(env);
    }
    int httpPort = operatorSettings.httpPort();
    ControlChannel channel = null;
    if (settings.isPresent()) {
      try (WaitingHealthEndpoint waiting = WaitingHealthEndpoint.serve(httpPort, "NATS")) {
        channel = settings.get().open(operatorSettings.clusterName(), clock);
      }
    }
    if (channel == null) {
      LOG.warn("event=control_channel_off reason=\"VARROA_NATS_URL is not set\" effect=\"no bootstrap tokens, no desired-state push\"");
    }
    String lease = operatorSettings.leaseNamespace().orElse("");
    Optional<LeaderPodLabel> leaderLabel = Optional.ofNullable(env.get("POD_NAME")).filter(n -> !n.isBlank())
        .map(pod -> new LeaderPodLabel(client, namespace, pod,
            () -> new InstallationOwner(client, lease).adoptLease(LEASE_NAME)));
    VarroaOperator operator = new VarroaOperator(client, operatorSettings, channel,
        activityOn(channel, operatorSettings.clusterName(), clock), leaderLabel, clock);
    int port = operator.serveHttp(httpPort);
    WebhookSettings hooks = WebhookSettings.fromEnv(env);
    int hooksPort = operator.serveWebhooks(hooks.port(), hooks.secret(client, namespace, clock));
    int wakerPort = operator.serveWaker(operatorSettings.controllers().hibernation().wakerPort());
    Runtime.getRuntime().addShutdownHook(new Thread(operator::close, "operator-shutdown"));
    operator.start();
    operator.pipelineRuns(pipelineRuns);
    if (channel != null) {
      operator.registerCluster(operatorSettings.clusterName(), ClusterRole.of(installation));
    }
    LOG.info("event=operator_started http_port={} webhooks_port={} waker_port={} lease_namespace={}", port, hooksPort,
        wakerPort, namespace);
  }
}
