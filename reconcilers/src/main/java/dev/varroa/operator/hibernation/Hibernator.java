package dev.varroa.operator.hibernation;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerAnnotations;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.api.v1alpha1.HibernationStatus;
import dev.varroa.operator.apply.KnownObjects;
import dev.varroa.operator.apply.ObjectOwnership;
import dev.varroa.operator.apply.OwnedObjectApplier;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.operator.events.EventRecorder;
import dev.varroa.operator.render.Parking;
import dev.varroa.operator.render.naming.StatefulSetName;
import dev.varroa.operator.render.resolve.ResolvedController;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.MiteRoute;
import dev.varroa.protocol.mite.v1.ObservedState;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hibernation step of a Controller pass (docs/hibernation.md): before the render, {@link #plan} applies the
 * {@link InactivityPolicy} to what the mite reports and what the waker kept, and says whether the StatefulSet has a
 * replica and where the Service sends its traffic; after the apply, {@link #complete} points the Service's waker
 * EndpointSlices at the waker (or removes them), consumes the visits of a woken controller, replays its kept
 * deliveries once it is Connected, and announces a park or a wake.
 */
public final class Hibernator {
  /** How often a parked controller's timers are asked for again while the record store could not tell them. */
  static final Duration TIMERS_RETRY = Duration.ofMinutes(1);
  private static final Logger LOG = LoggerFactory.getLogger(Hibernator.class);

  /**
   * What the policy decided before the render.
   *
   * @param parking what the StatefulSet and the Service render with
   * @param hibernated the phase is Hibernated
   * @param requests the visit and delivery Secrets the waker kept (metadata only)
   */
  public record Plan(ControllerIdentity id, String service, InactivityPolicy.Decision decision, Parking parking,
      boolean hibernated, boolean wasParked, boolean connected, List<Secret> requests,
      Optional<Instant> timersRetryAt) {}

  /** What a pass reports: status.hibernation, and when time alone asks for another pass. */
  public record Outcome(HibernationStatus status, Optional<Duration> recheck) {}

  private final Clock clock;
  private final ControlChannel channel;
  private final JobSchedules schedules;
  private final HibernationSettings settings;
  private final BiConsumer<Controller, String> onParked;
  private final BiConsumer<Controller, String> onWoken;
  private final DeliveryReplayer replayer;
  private final Instant watchingSince;
  private final Map<String, Instant> lastSeenBusy = new ConcurrentHashMap<>();
  private final Map<String, Instant> timersRetry = new ConcurrentHashMap<>();
  private InformerEventSource<Secret, Controller> requests;
  private InformerEventSource<EndpointSlice, Controller> routes;
  private InformerEventSource<EndpointSlice, Controller> wakerEndpoints;

  /**
   * @param channel the control channel (mite observations, replays); null runs without one: nothing is parked
   * @param onParked told of a park, with the reason (activity)
   * @param onWoken told of a wake, with the source (activity)
   * @param changed asks for a pass of a controller whose replays ended
   */
  public Hibernator(Clock clock, ControlChannel channel, JobSchedules schedules, HibernationSettings settings,
      BiConsumer<Controller, String> onParked, BiConsumer<Controller, String> onWoken,
      Consumer<ControllerIdentity> changed) {
    this.clock = clock;
    this.channel = channel;
    this.schedules = schedules;
    this.settings = settings;
    this.onParked = onParked;
    this.onWoken = onWoken;
    this.replayer = channel == null ? null : new DeliveryReplayer(channel, clock, changed);
    this.watchingSince = clock.instant();
  }

  /** The informers of the waker's Secrets, the Services' waker routes and the waker's own endpoints. */
  public List<EventSource<?, Controller>> eventSources(EventSourceContext<Controller> context) {
    requests = new InformerEventSource<>(InformerEventSourceConfiguration.from(Secret.class, Controller.class)
        .withName("hibernation-wake-requests")
        .withLabelSelector(WakeRequests.KIND_LABEL)
        .withItemStore(new MetadataOnly())
        .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(Controller.class))
        .build(), context);
    routes = new InformerEventSource<>(InformerEventSourceConfiguration.from(EndpointSlice.class, Controller.class)
        .withName("hibernation-waker-routes")
        .withLabelSelector(WakerRoute.MANAGED_BY_LABEL + "=" + WakerRoute.MANAGED_BY)
        .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(Controller.class))
        .build(), context);
    List<EventSource<?, Controller>> sources = new ArrayList<>(List.of(requests, routes));
    settings.wakerService().ifPresent(waker -> {
      wakerEndpoints = new InformerEventSource<>(
          InformerEventSourceConfiguration.from(EndpointSlice.class, Controller.class)
              .withName("hibernation-waker-endpoints")
              .withNamespaces(Set.of(waker.namespace()))
              .withLabelSelector(WakerRoute.SERVICE_NAME_LABEL + "=" + waker.name())
              // the waker moved: every Service routed to it follows
              .withSecondaryToPrimaryMapper(slice -> routes.list(r -> true)
                  .flatMap(r -> Mappers.fromOwnerReferences(Controller.class).toPrimaryResourceIDs(r).stream())
                  .collect(Collectors.toSet()))
              .build(), context);
      sources.add(wakerEndpoints);
    });
    return sources;
  }

  /** Decides before the render: park, stay, or wake; and where the Service sends traffic. */
  public Plan plan(Controller controller, ResolvedController resolved, ControllerStatus previous, Pod pod) {
    Instant now = clock.instant();
    ControllerIdentity id = new ControllerIdentity(controller.getMetadata().getNamespace(),
        controller.getMetadata().getName(), controller.getMetadata().getUid());
    String service = StatefulSetName.of(id.name(), id.uid());
    Optional<MiteRoute> route = channel == null ? Optional.empty() : channel.routes().live(id);
    Optional<InactivityPolicy.Use> use = route.map(r -> use(r));
    if (use.filter(u -> u.runningBuilds() > 0 || u.queuedBuilds() > 0).isPresent()) {
      lastSeenBusy.put(id.uid(), now);
    }
    List<Secret> kept = requests == null ? List.of()
        : requests.list(id.namespace(), s -> DeliveryReplayer.ownedBy(s, id.uid())).toList();
    List<InactivityPolicy.WakeRequest> wakeRequests = kept.stream().map(s -> new InactivityPolicy.WakeRequest(
        WakeRequests.kind(s).filter(WakeRequests.DELIVERY::equals).isPresent()
            ? InactivityPolicy.SOURCE_WEBHOOK : InactivityPolicy.SOURCE_BROWSER, WakeRequests.receivedAt(s))).toList();
    int deliveries = (int) kept.stream().filter(s -> WakeRequests.kind(s).filter(WakeRequests.DELIVERY::equals)
        .isPresent()).count();
    Map<String, String> annotations = controller.getMetadata().getAnnotations();
    InactivityPolicy.Input in = new InactivityPolicy.Input(resolved.hibernation().idleMinutes(),
        resolved.hibernation().wakeAheadMinutes(), resolved.stopped(),
        previous.home != null && (previous.home.restore != null || previous.home.move != null),
        previous.backup != null && previous.backup.inProgress != null, previous.hibernation,
        Optional.ofNullable(annotations == null ? null : annotations.get(ControllerAnnotations.WAKE)), use,
        Optional.ofNullable(lastSeenBusy.get(id.uid())), watchingSince, wakeRequests, deliveries, now,
        Optional.ofNullable(annotations == null ? null : annotations.get(ControllerAnnotations.HIBERNATE_NOW))
            .map(value -> new InactivityPolicy.HibernateRequest(id.namespace() + "/" + id.name(), value)));
    InactivityPolicy.Decision decision = InactivityPolicy.decide(in);
    Optional<Instant> retryTimers = Optional.empty();
    if (decision.state() == InactivityPolicy.State.READY_TO_PARK) {
      InactivityPolicy.Timers timers = schedules.next(id, JenkinsZone.of(resolved), now);
      decision = InactivityPolicy.park(in, decision, timers);
      if (timers instanceof InactivityPolicy.Timers.Unknown unknown) {
        LOG.info("event=timers_unknown controller={} reason=\"{}\"", id.routeKey(), unknown.why());
        timersRetry.put(id.uid(), now.plus(TIMERS_RETRY));
      }
    } else if (decision.state() == InactivityPolicy.State.PARKED && InactivityPolicy.timersUnknown(decision.status())) {
      Instant due = timersRetry.getOrDefault(id.uid(), now);
      if (!due.isAfter(now)) {
        InactivityPolicy.Timers timers = schedules.next(id, JenkinsZone.of(resolved), now);
        if (timers instanceof InactivityPolicy.Timers.Known known) {
          HibernationStatus learned = InactivityPolicy.timersLearned(decision.status(), in.idleMinutes().orElseThrow(),
              in.wakeAheadMinutes(), known);
          decision = new InactivityPolicy.Decision(decision.state(), learned, InactivityPolicy.nextTimerWake(learned),
              Optional.empty());
          timersRetry.remove(id.uid());
          LOG.info("event=timers_learned controller={} next_timer_wake_at={}", id.routeKey(),
              decision.status().nextTimerWakeAt);
        } else {
          timersRetry.put(id.uid(), now.plus(TIMERS_RETRY));
        }
      }
      retryTimers = Optional.ofNullable(timersRetry.get(id.uid()));
    }
    boolean parked = decision.state() == InactivityPolicy.State.PARKED;
    boolean routed = routes != null && routes.get(new ResourceID(WakerRoute.sliceName(service, WakerRoute.IPV4),
        id.namespace())).isPresent();
    // a woken controller keeps the waker until its pod is ready, so visitors see the page, not an error
    boolean toWaker = parked || (routed && !resolved.stopped() && !ready(pod));
    return new Plan(id, service, decision, new Parking(parked, toWaker), parked,
        previous.hibernation != null && previous.hibernation.since != null, route.isPresent(), kept, retryTimers);
  }

  /** After the apply: the waker route, the woken controller's visits and kept deliveries, the announcements. */
  public Outcome complete(KubernetesClient client, Controller controller, Plan plan) {
    Instant now = clock.instant();
    if (plan.parking().serviceToWaker()) {
      route(client, controller, plan);
    } else {
      unroute(client, plan);
    }
    if (plan.hibernated() && !plan.wasParked()) {
      LOG.info("event=controller_parked controller={} reason=\"{}\"", plan.id().routeKey(), plan.decision().status().reason);
      new EventRecorder(client, OwnedObjectApplier.FIELD_MANAGER, clock).normal(controller, "Hibernated",
          plan.decision().status().reason);
      onParked.accept(controller, plan.decision().status().reason);
    }
    plan.decision().wokeBy().ifPresent(source -> {
      LOG.info("event=controller_woken controller={} source={}", plan.id().routeKey(), source);
      new EventRecorder(client, OwnedObjectApplier.FIELD_MANAGER, clock).normal(controller, "Woken",
          "woken by " + source + "; Jenkins starts on its kept JENKINS_HOME");
      onWoken.accept(controller, source);
    });
    List<Optional<Instant>> due = new ArrayList<>(List.of(plan.decision().recheckAt(), plan.timersRetryAt()));
    boolean up = !plan.hibernated() && !plan.parking().serviceToWaker() && plan.connected();
    if (up) {
      // the woken controller serves its own traffic again: its visits are consumed, its deliveries replayed
      plan.requests().stream().filter(s -> WakeRequests.kind(s).filter(WakeRequests.VISIT::equals).isPresent())
          .forEach(s -> delete(client, s));
      boolean deliveries = plan.requests().stream()
          .anyMatch(s -> WakeRequests.kind(s).filter(WakeRequests.DELIVERY::equals).isPresent());
      if (deliveries && replayer != null) {
        due.add(replayer.replay(client, controller, plan.id()));
      }
    }
    Optional<Duration> recheck = due.stream().flatMap(Optional::stream).min(Instant::compareTo)
        .map(at -> Duration.between(now, at)).map(d -> d.isNegative() || d.isZero() ? Duration.ofSeconds(1) : d);
    return new Outcome(plan.decision().status(), recheck);
  }

  /** Forgets what it kept in memory of a deleted Controller. */
  public void forget(Controller controller) {
    String uid = controller.getMetadata().getUid();
    if (uid != null) {
      lastSeenBusy.remove(uid);
      timersRetry.remove(uid);
      if (replayer != null) {
        replayer.forget(uid);
      }
    }
  }

  private static InactivityPolicy.Use use(MiteRoute route) {
    ObservedState observed = route.getObserved();
    return new InactivityPolicy.Use(Instant.ofEpochMilli(route.getConnectedAtEpochMillis()), observed.getRunningBuilds(),
        observed.getQueuedBuilds(), observed.getLastUserRequestEpochMillis() > 0
            ? Optional.of(Instant.ofEpochMilli(observed.getLastUserRequestEpochMillis())) : Optional.empty());
  }

  static boolean ready(Pod pod) {
    return pod != null && pod.getMetadata().getDeletionTimestamp() == null && pod.getStatus() != null
        && pod.getStatus().getConditions() != null && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  /** Points the Service at the waker; the first time, removes the slices Kubernetes made while it selected the pod. */
  private void route(KubernetesClient client, Controller controller, Plan plan) {
    String namespace = plan.id().namespace();
    WakerRoute.WakerEndpoints waker = WakerRoute.WakerEndpoints.of(wakerEndpoints == null ? List.of()
        : wakerEndpoints.list(s -> true).toList());
    boolean routedBefore = routes.get(new ResourceID(WakerRoute.sliceName(plan.service(), WakerRoute.IPV4), namespace))
        .isPresent();
    List<EndpointSlice> desired = WakerRoute.render(plan.id().name(), namespace, plan.service(), waker);
    // the informer holds the waker's own slices: one of that name may still exist, written by someone else
    OwnedObjectApplier applier = new OwnedObjectApplier(client, KnownObjects.in(routes, EndpointSlice.class),
        ObjectOwnership::controllerRefusal);
    for (EndpointSlice slice : desired) {
      OwnedObjectApplier.Outcome outcome = applier.apply(slice, controller);
      if (outcome.refusal().isPresent()) {
        LOG.warn("event=waker_route_refused controller={} slice={} reason=\"{}\"", plan.id().routeKey(),
            slice.getMetadata().getName(), outcome.refusal().get());
        continue;
      }
      if (!outcome.written()) {
        continue;
      }
      LOG.info("event=waker_route_applied controller={} slice={} waker_endpoints={} port={}", plan.id().routeKey(),
          slice.getMetadata().getName(), waker.count(), waker.port());
    }
    Set<String> names = desired.stream().map(s -> s.getMetadata().getName()).collect(Collectors.toSet());
    routes.list(namespace, s -> ownedBy(s, plan.id().uid()) && !names.contains(s.getMetadata().getName()))
        .forEach(s -> delete(client, s));
    if (!routedBefore) {
      // with no selector Kubernetes no longer updates its own slices: what they list would linger beside the waker
      client.discovery().v1().endpointSlices().inNamespace(namespace)
          .withLabel(WakerRoute.SERVICE_NAME_LABEL, plan.service())
          .withLabel(WakerRoute.MANAGED_BY_LABEL, WakerRoute.KUBERNETES_MANAGER)
          .list().getItems().forEach(s -> delete(client, s));
      if (waker.count() == 0) {
        LOG.warn("event=waker_without_endpoints controller={} waker_service={} effect=\"requests to the parked"
            + " controller fail until the waker's Service lists a ready endpoint\"", plan.id().routeKey(),
            settings.wakerService().map(w -> w.namespace() + "/" + w.name()).orElse("none configured"));
      }
    }
  }

  private void unroute(KubernetesClient client, Plan plan) {
    if (routes == null) {
      return;
    }
    routes.list(plan.id().namespace(), s -> ownedBy(s, plan.id().uid())).forEach(s -> {
      delete(client, s);
      LOG.info("event=waker_route_removed controller={} slice={}", plan.id().routeKey(), s.getMetadata().getName());
    });
  }

  private static boolean ownedBy(HasMetadata object, String uid) {
    return object.getMetadata().getOwnerReferences() != null
        && object.getMetadata().getOwnerReferences().stream().anyMatch(o -> uid.equals(o.getUid()));
  }

  private static void delete(KubernetesClient client, HasMetadata object) {
    try {
      client.resource(object).delete();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
  }

  /** The wake request informer keeps metadata only: a delivery's body is read when it is replayed. */
  private static final class MetadataOnly extends BasicItemStore<Secret> {
    MetadataOnly() {
      super(Cache::metaNamespaceKeyFunc);
    }

    @Override
    public Secret put(String key, Secret secret) {
      Secret stripped = new SecretBuilder().withMetadata(secret.getMetadata()).withType(secret.getType()).build();
      stripped.getMetadata().setManagedFields(null);
      return super.put(key, stripped);
    }
  }
}
