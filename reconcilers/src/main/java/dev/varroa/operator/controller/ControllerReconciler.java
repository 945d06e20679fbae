package dev.varroa.operator.controller;

import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.operator.agents.OrphanAgentCollector;
import dev.varroa.operator.backup.BackupStep;
import dev.varroa.operator.backup.ChannelQuietDown;
import dev.varroa.operator.backup.QuietDown;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.MiteRoute;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.operator.hibernation.Hibernator;
import dev.varroa.operator.hibernation.JobSchedules;
import dev.varroa.protocol.bus.v1.ControllerDetail;
import dev.varroa.operator.render.InstallationDefaults;
import dev.varroa.operator.render.ControllerLabels;
import dev.varroa.operator.render.ControllerNames;
import dev.varroa.operator.render.ControllerObjects;
import dev.varroa.operator.render.JenkinsContainer;
import dev.varroa.operator.render.RenderInput;
import dev.varroa.operator.render.StatefulSetName;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import dev.varroa.operator.home.HomePass;
import dev.varroa.operator.home.HomeNames;
import dev.varroa.operator.home.JenkinsHomeStep;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
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

/**
 * Reconciles each Controller into its Jenkins workload, in explicit steps: resolve every input from the
 * informer caches ({@link ControllerInputResolver}), render the owned objects with the pure renderers,
 * apply what changed ({@link WorkloadApplier}), deliver tokens and desired state over the control
 * channel ({@link ChannelDeliverer}), and report status ({@link ControllerStatusAggregator}). Every input
 * is watched, so a change reaches its Controllers at once; no pass re-reads what an informer holds.
 */
// ControllerUpdateFilter: varroa.dev/ annotations (confirm-home-move, backup-now, wake) start a pass though no
// generation changes; a status patch does not
@ControllerConfiguration(name = "controller", generationAwareEventProcessing = false,
    informer = @Informer(onUpdateFilter = ControllerUpdateFilter.class))
public final class ControllerReconciler implements Reconciler<Controller>, Cleaner<Controller> {
  /** The actor of the operator's activity events. */
  public static final String ACTOR = "operator";
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

  @Override
  public UpdateControl<Controller> reconcile(Controller controller, Context<Controller> context) {
    KubernetesClient client = context.getClient();
    if (channel != null) {
      // gateways open a mite's stream only for a Controller recorded live with its UID (docs/security.md)
      channel.recordLive(identity(controller));
    }
    ControllerStatus previous = controller.getStatus() == null ? new ControllerStatus() : controller.getStatus();
    long generation = controller.getMetadata().getGeneration() == null ? 0 : controller.getMetadata().getGeneration();

    ControllerInputResolver.Gathered gathered = ControllerInputResolver.gather(controller, caches, starter);
    if (gathered instanceof ControllerInputResolver.Blocked blocked) {
      return blocked(controller, previous, generation, blocked.message());
    }
    if (gathered instanceof ControllerInputResolver.WaitingForBundle waiting) {
      // the bundle's render ConfigMap is watched: its arrival starts the next pass
      ControllerStatus status = StatusComparison.copy(previous);
      status.phase = previous.phase == null ? ControllerStatus.Phase.Pending : previous.phase;
      status.bundle = waiting.bundleName();
      status.observedGeneration = generation;
      return patch(controller, previous, status);
    }
    ControllerInputs inputs = ((ControllerInputResolver.Ready) gathered).inputs();

    // hibernation (docs/hibernation.md): park an idle controller, wake it; the render follows the verdict
    Hibernator.Plan parking = hibernation.plan(controller, inputs.resolved(), previous, caches.pod(
        controller.getMetadata().getNamespace(), inputs.resolved().names().statefulSet() + "-0").orElse(null));
    RenderInput input = inputs.renderInput(Optional.ofNullable(channel).map(ControlChannel::endpoint))
        .withParking(parking.parking());
    List<HasMetadata> objects = ControllerObjects.render(input);

    String namespace = controller.getMetadata().getNamespace();
    String stsName = input.names().statefulSet();
    // restore and move of JENKINS_HOME: what the StatefulSet may do meanwhile, and status.home
    HomePass home = homes.pass(client, controller, inputs.resolved(), objects.stream()
        .filter(StatefulSet.class::isInstance).map(StatefulSet.class::cast).findFirst().orElseThrow(),
        caches.statefulSet(namespace, stsName), caches.claim(namespace, new HomeNames(stsName).claim()));
    ControllerStatus withHome = home.applyTo(previous, generation, clock.instant());

    Optional<WorkloadApplier.Refusal> refused = new WorkloadApplier(client, caches).apply(controller, objects,
        home.workload());
    if (refused.isPresent()) {
      UpdateControl<Controller> control = blocked(controller, previous, withHome, generation, refused.get().message());
      return refused.get().retry().map(control::rescheduleAfter).orElse(control);
    }

    StatefulSet statefulSet = caches.statefulSet(namespace, stsName).orElse(null);
    Pod pod = caches.pod(namespace, stsName + "-0").orElse(null);
    ChannelDeliverer.Delivered delivered = deliverer == null
        ? new ChannelDeliverer.Delivered(null, Optional.empty(), Optional.empty())
        : deliverer.deliver(client, caches, controller, inputs, input, objects, pod, previous);
    if (delivered.blocked().isPresent()) {
      return blocked(controller, previous, withHome, generation, delivered.blocked().get());
    }

    Hibernator.Outcome hibernated = hibernation.complete(client, controller, parking);
    ControllerStatus status = ControllerStatusAggregator.aggregate(withHome, new ControllerStatusAggregator.Observation(
        generation, inputs.resolved().stopped(), Optional.empty(), inputs.bundleName(), stsName,
        JenkinsContainer.jenkinsUrl(input), statefulSet, pod, delivered.mite(), parking.hibernated()), clock.instant());
    status.hibernation = hibernated.status();
    Optional<Duration> recheck = sooner(delivered.recheck(), hibernated.recheck());
    Optional<MiteRoute> route = liveRoute(controller);
    recheck = sooner(recheck, collectOrphanAgents(client, route, inputs.resolved().agents().namespace(), stsName));
    BackupStep.Outcome backup = new BackupStep(client, clock, quietDown).run(controller, inputs.resolved().backup(),
        withHome, stsName, route.map(MiteRoute::getObserved));
    status.backup = backup.status();
    backup.condition().ifPresentOrElse(c -> ControllerStatusAggregator.put(status, c, generation, clock.instant()),
        () -> status.conditions.removeIf(c -> Condition.BACKUP_FAILED.equals(c.type)));
    recheck = sooner(recheck, backup.recheck());
    passes.incrementAndGet();
    UpdateControl<Controller> control = patch(controller, previous, status);
    return home.recheckBefore(recheck).map(control::rescheduleAfter).orElse(control);
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

  /** Inputs that can block a pass are watched: a block ends when its cause changes, not on a timer. */
  private UpdateControl<Controller> blocked(Controller controller, ControllerStatus previous, long generation,
      String message) {
    return blocked(controller, previous, previous, generation, message);
  }

  /** @param base previous with what this pass already decided (status.home) */
  private UpdateControl<Controller> blocked(Controller controller, ControllerStatus previous, ControllerStatus base,
      long generation, String message) {
    ControllerStatus status = ControllerStatusAggregator.aggregate(base, new ControllerStatusAggregator.Observation(
        generation, false, Optional.of(message), previous.bundle, previous.statefulSetName, previous.url, null, null),
        clock.instant());
    return patch(controller, previous, status);
  }

  private UpdateControl<Controller> patch(Controller controller, ControllerStatus previous, ControllerStatus status) {
    if (StatusComparison.same(previous, status)) {
      return UpdateControl.noUpdate();
    }
    activity.statusWritten(controller, previous, status);
    controller.setStatus(status);
    // Only this reconciler writes status: apply it without the resourceVersion of a cache that may lag
    // our own last patch, so a pass right after another does not end in a 409 and a retry.
    controller.getMetadata().setResourceVersion(null);
    return UpdateControl.patchStatus(controller);
  }
}
