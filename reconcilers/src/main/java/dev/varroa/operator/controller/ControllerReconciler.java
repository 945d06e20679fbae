package dev.varroa.operator.controller;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.operator.agents.OrphanAgentCollector;
import dev.varroa.operator.backup.BackupStep;
import dev.varroa.operator.backup.ChannelQuietDown;
import dev.varroa.operator.backup.QuietDown;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.operator.controller.ControllerStatusAggregator.Observation;
import dev.varroa.operator.controller.ControllerStatusAggregator.Workload;
import dev.varroa.operator.hibernation.Hibernator;
import dev.varroa.operator.hibernation.JobSchedules;
import dev.varroa.operator.home.HomeNames;
import dev.varroa.operator.home.HomePass;
import dev.varroa.operator.home.JenkinsHomeStep;
import dev.varroa.operator.manifests.ManifestCheck;
import dev.varroa.operator.render.ControllerObjects;
import dev.varroa.operator.render.JenkinsContainer;
import dev.varroa.operator.render.RenderInput;
import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.operator.render.naming.ControllerNames;
import dev.varroa.operator.render.naming.StatefulSetName;
import dev.varroa.operator.render.resolve.InstallationDefaults;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.ControllerDetail;
import dev.varroa.protocol.bus.v1.MiteRoute;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.PrimaryUpdateAndCacheUtils;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles each Controller into its Jenkins workload, in explicit steps: resolve every input from the
 * informer caches ({@link ControllerInputResolver}), render the owned objects with the pure renderers,
 * apply what changed ({@link WorkloadApplier}), deliver tokens and desired state over the control
 * channel ({@link ChannelDeliverer}), and report status ({@link ControllerStatusAggregator}). Every input
 * is watched, so a change reaches its Controllers at once; no pass re-reads what an informer holds.
 */
// ControllerUpdateFilter: varroa.dev/ annotations (confirm-home-move, backup-now, wake, hibernate-now, reapply) start
// a pass though no generation changes; a status patch does not
@ControllerConfiguration(name = "controller", generationAwareEventProcessing = false,
    informer = @Informer(onUpdateFilter = ControllerUpdateFilter.class))
public final class ControllerReconciler implements Reconciler<Controller>, Cleaner<Controller> {
  /** The actor of the operator's activity events. */
  public static final String ACTOR = "operator";
  private static final Logger LOG = LoggerFactory.getLogger(ControllerReconciler.class);
  private final Clock clock;
  private final StarterRenders starter = new StarterRenders();
  private final AtomicLong passes = new AtomicLong();
  private final ControlChannel channel;
  private final ChannelDeliverer deliverer;
  private final SimpleInboundEventSource<Controller> miteEvents = new SimpleInboundEventSource<>("mite-routes");
  private volatile ControllerCaches caches;
  private final InstallationDefaults installation;
  private final ControllerActivity activity;
  private final QuietDown quietDown;
  /** Orphaned agent pods are looked for at most this often per Controller. */
  static final Duration ORPHAN_SWEEP_INTERVAL = Duration.ofMinutes(1);
  private final Map<String, Instant> orphanSweeps = new ConcurrentHashMap<>();
  private volatile Duration orphanGrace = OrphanAgentCollector.GRACE;
  private volatile Duration orphanSweepInterval = ORPHAN_SWEEP_INTERVAL;
  private final JenkinsHomeStep homes;
  private final Hibernator hibernation;

  /**
   * @param settings what the installation gives every Controller, read from the environment in main
   * @param channel the control channel to the mites; null runs without one (no tokens, no desired-state push)
   * @param activity where the lifecycle is published (docs/activity.md)
   * @param schedules where a parked Controller's timer-triggered jobs are learned
   */
  public ControllerReconciler(Clock clock, ControllerSettings settings, ControlChannel channel,
      ControllerActivity activity, JobSchedules schedules) {
    this.activity = activity;
    this.clock = clock;
    this.homes = new JenkinsHomeStep(clock, settings.homeCopy());
    this.installation = settings.installation();
    this.channel = channel;
    this.quietDown = channel == null ? QuietDown.NONE : new ChannelQuietDown(channel, clock);
    this.deliverer = channel == null ? null : new ChannelDeliverer(channel, new MiteDelivery(channel, clock,
        id -> miteEvents.propagateEvent(new ResourceID(id.name(), id.namespace()))), clock);
    this.hibernation = new Hibernator(clock, channel, schedules, settings.hibernation(), activity::hibernated,
        activity::woken, id -> miteEvents.propagateEvent(new ResourceID(id.name(), id.namespace())));
  }

  @Override
  public List<EventSource<?, Controller>> prepareEventSources(EventSourceContext<Controller> context) {
    ControllerCaches built = new ControllerCaches(context, installation);
    caches = built;
    List<EventSource<?, Controller>> sources = new ArrayList<>(built.eventSources());
    if (channel != null) {
      channel.serve(id -> built.controller(new ResourceID(id.name(), id.namespace()))
              .filter(c -> id.uid().equals(c.getMetadata().getUid())).isPresent(),
          routeKey -> {
            int dot = routeKey.indexOf('.');
            if (dot > 0) {
              miteEvents.propagateEvent(new ResourceID(routeKey.substring(dot + 1), routeKey.substring(0, dot)));
            }
          });
      sources.add(miteEvents);
    }
    sources.addAll(hibernation.eventSources(context));
    return sources;
  }

  /**
   * One Controller in full (ControllerDetail) from the caches, for the BFF; empty before the caches exist or when
   * there is no such Controller.
   */
  public Optional<ControllerDetail> detail(String cluster, String namespace, String name) {
    ControllerCaches current = caches;
    if (current == null) {
      return Optional.empty();
    }
    return current.controller(new ResourceID(name, namespace))
        .map(c -> ControllerDetails.render(cluster, c, ControllerInputResolver.gather(c, current, starter)));
  }

  /**
   * What a Controller would inherit here (ControllerClasses, ProvisioningDefaults, the installation's mite image), from
   * the caches, for the manifest check; empty before the caches exist.
   */
  public Optional<ManifestCheck.Inherited> inherited(String cluster) {
    ControllerCaches current = caches;
    if (current == null) {
      return Optional.empty();
    }
    return Optional.of(new ManifestCheck.Inherited(current::controllerClass, current.defaults(),
        current.installation().miteImage(), cluster));
  }

  /**
   * One pass, Flink's way: validate (inputs), observe and decide (hibernation plan, render, home), reconcile (apply,
   * delivery, hibernation, orphan sweep, backup). Each step returns an outcome; the observation collects them and
   * {@link ControllerStatusAggregator} alone writes status from it.
   */
  @Override
  public UpdateControl<Controller> reconcile(Controller controller, Context<Controller> context) {
    KubernetesClient client = context.getClient();
    ControllerStatus previous = controller.getStatus() == null ? new ControllerStatus() : controller.getStatus();
    Observation seen = Observation.of(generation(controller));

    ControllerInputResolver.Gathered gathered = PassStep.INPUTS.run(() -> inputs(controller));
    if (gathered instanceof ControllerInputResolver.Blocked blocked) {
      return write(controller, context, previous, seen.blockedBy(blocked.message()));
    }
    if (gathered instanceof ControllerInputResolver.WaitingForBundle waiting) {
      return write(controller, context, previous, seen.waitingFor(waiting.bundleName()));
    }
    ControllerInputs inputs = ((ControllerInputResolver.Ready) gathered).inputs();
    seen = seen.withCell(inputs.cell());

    Hibernator.Plan parking = PassStep.HIBERNATION_PLAN.run(() -> planHibernation(controller, inputs, previous));
    seen = seen.parked(parking.hibernated());
    Rendered rendered = PassStep.RENDER.run(() -> render(inputs, parking));
    HomePass home = PassStep.HOME.run(() -> home(client, controller, inputs, rendered));
    seen = seen.withHome(home);

    Optional<WorkloadApplier.Refusal> refused = PassStep.APPLY.run(() -> new WorkloadApplier(client, caches)
        .apply(controller, rendered.objects(), home.workload()));
    if (refused.isPresent()) {
      UpdateControl<Controller> control = write(controller, context, previous,
          seen.blockedBy(refused.get().message()));
      return refused.get().retry().map(control::rescheduleAfter).orElse(control);
    }
    Workload workload = workload(inputs, rendered);
    seen = seen.withWorkload(workload);
    ChannelDeliverer.Delivered delivered = PassStep.DELIVERY.run(() -> deliver(client, controller, inputs, rendered,
        workload.pod(), previous));
    if (delivered.blocked().isPresent()) {
      return write(controller, context, previous, seen.blockedBy(delivered.blocked().get()));
    }
    seen = seen.withMite(delivered.mite());
    Hibernator.Outcome hibernated = PassStep.HIBERNATION.run(() -> hibernation.complete(client, controller, parking));
    Optional<MiteRoute> route = liveRoute(controller);
    Optional<Duration> sweep = PassStep.ORPHAN_SWEEP.run(() -> collectOrphanAgents(client, route,
        inputs.resolved().agents().namespace(), rendered.statefulSetName()));
    BackupStep.Outcome backup = PassStep.BACKUP.run(() -> new BackupStep(client, clock, quietDown).run(controller,
        inputs.resolved().backup(), previous, home.home(), rendered.statefulSetName(), route.map(MiteRoute::getObserved)));
    seen = seen.withHibernation(hibernated).withBackup(backup);

    passes.incrementAndGet();
    UpdateControl<Controller> control = write(controller, context, previous, seen);
    Optional<Duration> recheck = Stream.of(delivered.recheck(), hibernated.recheck(), sweep, backup.recheck())
        .reduce(Optional.empty(), ControllerReconciler::sooner);
    return home.recheckBefore(recheck).map(control::rescheduleAfter).orElse(control);
  }

  /**
   * An unexpected exception in a pass: Ready False with reason ReconcileError naming the step and the error, every
   * other part of status as it was; the framework retries with its backoff (docs/controllers.md).
   */
  @Override
  public ErrorStatusUpdateControl<Controller> updateErrorStatus(Controller controller, Context<Controller> context,
      Exception e) {
    ControllerStatus previous = controller.getStatus() == null ? new ControllerStatus() : controller.getStatus();
    String step = e instanceof PassStep.Failure failure ? failure.step().label() : PassStep.STATUS_PATCH;
    boolean lastAttempt = context.getRetryInfo().map(RetryInfo::isLastAttempt).orElse(false);
    LOG.warn("event=controller_pass_failed namespace={} controller={} step={} last_attempt={} error=\"{}\"",
        controller.getMetadata().getNamespace(), controller.getMetadata().getName(), step, lastAttempt,
        e instanceof PassStep.Failure ? e.getCause() : e.toString());
    ControllerStatus status = ControllerStatusAggregator.failed(previous, step, e, generation(controller), lastAttempt,
        clock.instant());
    if (StatusComparison.same(previous, status)) {
      return ErrorStatusUpdateControl.noStatusUpdate();
    }
    controller.setStatus(status);
    controller.getMetadata().setResourceVersion(null);
    return ErrorStatusUpdateControl.patchStatus(controller);
  }

  /** The render step's outcome: the owned objects, and what they were rendered from. */
  private record Rendered(RenderInput input, List<HasMetadata> objects) {
    String statefulSetName() {
      return input.names().statefulSet();
    }

    StatefulSet statefulSet() {
      return objects.stream().filter(StatefulSet.class::isInstance).map(StatefulSet.class::cast).findFirst()
          .orElseThrow();
    }
  }

  /** Records the Controller live for the gateways, then gathers every input from the caches. */
  private ControllerInputResolver.Gathered inputs(Controller controller) {
    if (channel != null) {
      // gateways open a mite's stream only for a Controller recorded live with its UID (docs/security.md)
      channel.recordLive(identity(controller));
    }
    return ControllerInputResolver.gather(controller, caches, starter);
  }

  /** Hibernation (docs/hibernation.md) decides before the render: park an idle controller, wake it. */
  private Hibernator.Plan planHibernation(Controller controller, ControllerInputs inputs, ControllerStatus previous) {
    return hibernation.plan(controller, inputs.resolved(), previous, caches.pod(controller.getMetadata().getNamespace(),
        inputs.resolved().names().statefulSet() + "-0").orElse(null));
  }

  private Rendered render(ControllerInputs inputs, Hibernator.Plan parking) {
    RenderInput input = inputs.renderInput(Optional.ofNullable(channel).map(ControlChannel::endpoint))
        .withParking(parking.parking());
    return new Rendered(input, ControllerObjects.render(input));
  }

  /** Restore and move of JENKINS_HOME: what the StatefulSet may do meanwhile, and status.home. */
  private HomePass home(KubernetesClient client, Controller controller, ControllerInputs inputs, Rendered rendered) {
    String namespace = controller.getMetadata().getNamespace();
    String stsName = rendered.statefulSetName();
    return homes.pass(client, controller, inputs.resolved(), rendered.statefulSet(),
        caches.statefulSet(namespace, stsName), caches.claim(namespace, new HomeNames(stsName).claim()));
  }

  /** The workload as the informers show it once applied. */
  private Workload workload(ControllerInputs inputs, Rendered rendered) {
    String namespace = rendered.statefulSet().getMetadata().getNamespace();
    String stsName = rendered.statefulSetName();
    return new Workload(inputs.bundleName(), stsName, JenkinsContainer.jenkinsUrl(rendered.input()),
        inputs.resolved().stopped(), caches.statefulSet(namespace, stsName).orElse(null),
        caches.pod(namespace, stsName + "-0").orElse(null));
  }

  /** Without a control channel there is nothing to deliver and no mite to report. */
  private ChannelDeliverer.Delivered deliver(KubernetesClient client, Controller controller, ControllerInputs inputs,
      Rendered rendered, Pod pod, ControllerStatus previous) {
    if (deliverer == null) {
      return new ChannelDeliverer.Delivered(null, Optional.empty(), Optional.empty());
    }
    return deliverer.deliver(client, caches, controller, inputs, rendered.input(), rendered.objects(), pod, previous);
  }

  /**
   * Objects in the Controller's namespace go with it through owner references; its RoleBinding in the
   * agents namespace cannot be owned across namespaces, so it is deleted here. The agents namespace
   * itself may be shared by other Controllers and stays.
   */
  @Override
  public DeleteControl cleanup(Controller controller, Context<Controller> context) {
    KubernetesClient client = context.getClient();
    if (channel != null) {
      channel.forgetLive(identity(controller));
    }
    String stsName = StatefulSetName.of(controller.getMetadata().getName(), controller.getMetadata().getUid());
    String label = ControllerLabels.CONTROLLER + "=" + ControllerLabels.value(controller.getMetadata().getName());
    client.rbac().roleBindings().inAnyNamespace().withLabelSelector(label).list().getItems().stream()
        .filter(binding -> binding.getMetadata().getName().equals(stsName + ControllerNames.AGENTS_SUFFIX))
        .forEach(binding -> client.resource(binding).delete());
    if (deliverer != null) {
      deliverer.forget(controller);
    }
    homes.forget(controller);
    hibernation.forget(controller);
    orphanSweeps.remove(stsName);
    activity.deleted(controller);
    return DeleteControl.defaultDelete();
  }

  /**
   * Once Jenkins is back and the mite has reported its agent nodes, removes the agent pods whose node is gone; at
   * most once a minute per Controller, since it lists pods.
   */
  private Optional<Duration> collectOrphanAgents(KubernetesClient client, Optional<MiteRoute> route,
      String agentsNamespace, String stsName) {
    if (route.isEmpty() || !route.get().getObserved().getAgentNodesObserved()) {
      return Optional.empty();
    }
    Instant now = clock.instant();
    Instant connected = Instant.ofEpochMilli(route.get().getConnectedAtEpochMillis());
    if (connected.plus(orphanGrace).isAfter(now)) {
      // Jenkins came back only now: its agents get the grace to reconnect before anything is removed
      return Optional.of(Duration.between(now, connected.plus(orphanGrace)).plusSeconds(1));
    }
    Instant last = orphanSweeps.get(stsName);
    if (last != null && last.plus(orphanSweepInterval).isAfter(now)) {
      return Optional.empty();
    }
    orphanSweeps.put(stsName, now);
    new OrphanAgentCollector(client, orphanGrace).collect(agentsNamespace, stsName,
        Set.copyOf(route.get().getObserved().getAgentNodesList()),
        connected, now);
    return Optional.empty();
  }

  /** Lets a test shorten the orphan collector's grace (production: {@link OrphanAgentCollector#GRACE}). */
  public ControllerReconciler withOrphanGrace(Duration grace, Duration sweepInterval) {
    this.orphanGrace = grace;
    this.orphanSweepInterval = sweepInterval;
    return this;
  }

  /** The mite's stream as the gateways report it, while it is live; empty without a control channel. */
  private Optional<MiteRoute> liveRoute(Controller controller) {
    if (channel == null) {
      return Optional.empty();
    }
    return channel.routes().live(identity(controller));
  }

  private static ControllerIdentity identity(Controller controller) {
    return new ControllerIdentity(controller.getMetadata().getNamespace(), controller.getMetadata().getName(),
        controller.getMetadata().getUid());
  }

  private static Optional<Duration> sooner(Optional<Duration> a, Optional<Duration> b) {
    if (a.isEmpty() || b.isEmpty()) {
      return a.isEmpty() ? b : a;
    }
    return a.get().compareTo(b.get()) <= 0 ? a : b;
  }

  /** Reconcile passes that completed without error, for metrics and tests that wait for a resync to settle. */
  public long completedPasses() {
    return passes.get();
  }

  private static long generation(Controller controller) {
    return controller.getMetadata().getGeneration() == null ? 0 : controller.getMetadata().getGeneration();
  }

  /**
   * The pass's one status write: the aggregator's status, patched only when it changed. Inputs that can block a pass
   * are watched, so a block ends when its cause changes, not on a timer.
   */
  private UpdateControl<Controller> write(Controller controller, Context<Controller> context, ControllerStatus previous,
      Observation seen) {
    ControllerStatus status = ControllerStatusAggregator.aggregate(previous, seen, clock.instant());
    if (StatusComparison.same(previous, status)) {
      return UpdateControl.noUpdate();
    }
    activity.statusWritten(controller, previous, status);
    Controller written = new Controller();
    written.setMetadata(new ObjectMetaBuilder().withName(controller.getMetadata().getName())
        .withNamespace(controller.getMetadata().getNamespace()).build());
    written.setStatus(status);
    // The informer's copy lags our own patch: cached, the next pass compares against what this one wrote and does
    // not write the same status again; a conflict with a stale copy waits for the cache and applies once more.
    PrimaryUpdateAndCacheUtils.ssaPatchStatusAndCacheResource(controller, written, context);
    return UpdateControl.noUpdate();
  }

}
