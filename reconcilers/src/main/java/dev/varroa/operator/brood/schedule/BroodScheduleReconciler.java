package dev.varroa.operator.brood.schedule;

import dev.varroa.api.v1alpha1.BroodOperation;
import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.BroodOperationStatus;
import dev.varroa.api.v1alpha1.BroodSchedule;
import dev.varroa.api.v1alpha1.BroodScheduleSpec;
import dev.varroa.api.v1alpha1.BroodScheduleStatus;
import dev.varroa.operator.status.Conditions;
import dev.varroa.operator.status.Kstatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles each BroodSchedule: at each time its cron expression names in its time zone it creates a BroodOperation
 * from its template (named after the scheduled time, so a run never starts twice), applies the concurrency policy and
 * the starting deadline, deletes finished runs beyond the history limits and reports last and next run in status
 * (docs/brood-schedules.md).
 */
@ControllerConfiguration(name = "broodschedule")
public final class BroodScheduleReconciler implements Reconciler<BroodSchedule> {
  /** The longest a schedule waits before it looks at the clock again, so a clock that jumped is seen. */
  public static final Duration LONGEST_WAIT = Duration.ofMinutes(10);
  /** The shortest requeue: the timer may wake a moment before the due instant. */
  private static final Duration SHORTEST_WAIT = Duration.ofMillis(50);
  public static final String FORBID = "Forbid";
  public static final String ALLOW = "Allow";
  public static final String REPLACE = "Replace";
  public static final String SKIPPED = "Skipped";
  /** lastResult of a run whose BroodOperation has no phase from the engine yet. */
  public static final String PENDING = "Pending";
  /** The Stalled reason when the API server refused the operation made from the template. */
  public static final String TEMPLATE_REFUSED = "TemplateRefused";
  private static final Logger LOG = LoggerFactory.getLogger(BroodScheduleReconciler.class);
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private final Clock clock;
  private final Duration longestWait;
  private final AtomicLong passes = new AtomicLong();
  private InformerEventSource<BroodOperation, BroodSchedule> operations;

  public BroodScheduleReconciler(Clock clock) {
    this(clock, LONGEST_WAIT);
  }

  /** @param longestWait how long a schedule waits at most before reading the clock again (tests move the clock) */
  public BroodScheduleReconciler(Clock clock, Duration longestWait) {
    this.clock = clock;
    this.longestWait = longestWait;
  }

  @Override
  public List<EventSource<?, BroodSchedule>> prepareEventSources(EventSourceContext<BroodSchedule> context) {
    operations = new InformerEventSource<>(InformerEventSourceConfiguration.from(BroodOperation.class,
            BroodSchedule.class).withName("brood-schedule-operations")
        .withLabelSelector(ScheduledOperation.SCHEDULE_LABEL)
        .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(BroodSchedule.class)).build(), context);
    return List.of(operations);
  }

  @Override
  public UpdateControl<BroodSchedule> reconcile(BroodSchedule schedule, Context<BroodSchedule> context) {
    KubernetesClient client = context.getClient();
    Instant now = clock.instant();
    Pass pass = new Pass(schedule, now);
    UpdateControl<BroodSchedule> control;
    try {
      ScheduleTimes times = times(schedule);
      if (Boolean.TRUE.equals(schedule.getSpec().suspend)) {
        control = pass.suspended(client);
      } else {
        Optional<Instant> due = times.due(pass.earliestUnhandled(), now);
        if (due.isPresent()) {
          // a status written a moment ago may not be in the cache yet: decide on the stored schedule
          BroodSchedule stored = client.resources(BroodSchedule.class).inNamespace(namespace(schedule))
              .withName(schedule.getMetadata().getName()).get();
          if (stored == null) {
            return UpdateControl.noUpdate();
          }
          if (!Objects.equals(stored.getMetadata().getResourceVersion(), schedule.getMetadata().getResourceVersion())) {
            pass = new Pass(stored, now);
            due = times(stored).due(pass.earliestUnhandled(), now);
          }
        }
        control = pass.scheduled(client, times, due);
      }
    } catch (ScheduleTimes.InvalidScheduleSpec e) {
      control = pass.stalled(client, e.reason(), e.getMessage());
    }
    passes.incrementAndGet();
    return control;
  }

  /** Reconcile passes completed, for tests that wait for a pass after they moved the clock. */
  public long passes() {
    return passes.get();
  }

  private static ScheduleTimes times(BroodSchedule schedule) {
    String name = schedule.getMetadata().getName();
    if (name.length() > ScheduledOperation.MAX_SCHEDULE_NAME) {
      throw new ScheduleTimes.InvalidScheduleSpec("NameTooLong", "BroodSchedule " + namespace(schedule) + "/" + name
          + ": metadata.name has " + name.length() + " characters, too long to add the run's time to; fix: a name of"
          + " at most " + ScheduledOperation.MAX_SCHEDULE_NAME + " characters");
    }
    return ScheduleTimes.of(schedule);
  }

  private static String namespace(BroodSchedule schedule) {
    return schedule.getMetadata().getNamespace();
  }

  /** One reconcile pass over one schedule: what it owns, and the status it builds. */
  private final class Pass {
    private final BroodSchedule schedule;
    private final Instant now;
    private final BroodScheduleStatus previous;
    private final BroodScheduleStatus status;
    private final long generation;
    private final List<BroodOperation> owned;

    Pass(BroodSchedule schedule, Instant now) {
      this.schedule = schedule;
      this.now = now;
      this.previous = schedule.getStatus() == null ? new BroodScheduleStatus() : schedule.getStatus();
      this.status = JSON.unmarshal(JSON.asJson(previous), BroodScheduleStatus.class);
      this.generation = schedule.getMetadata().getGeneration() == null ? 0 : schedule.getMetadata().getGeneration();
      this.status.observedGeneration = generation;
      String uid = schedule.getMetadata().getUid();
      this.owned = new ArrayList<>(operations.list(namespace(schedule),
          o -> ScheduledOperation.ownedBy(o, uid)).sorted(ScheduledOperation.OLDEST_FIRST).toList());
    }

    /**
     * The first scheduled time not yet handled (started or skipped): status.nextRunTime while the spec it was computed
     * for holds; after an edit, a resume or a fix, now (a run the edit left due still counts); at first sight, the
     * creation time, so a run due between creation and the operator's first look still starts.
     */
    Instant earliestUnhandled() {
      Optional<Instant> next = Optional.ofNullable(previous.nextRunTime).map(Instant::parse);
      if (previous.observedGeneration == null) {
        Instant created = Optional.ofNullable(schedule.getMetadata().getCreationTimestamp()).map(Instant::parse)
            .orElse(now);
        // a clock behind the API server's never looks before its own now
        return created.isBefore(now) ? created : now;
      }
      if (previous.observedGeneration == generation) {
        return next.orElse(now);
      }
      return next.filter(n -> !n.isAfter(now)).orElse(now);
    }

    UpdateControl<BroodSchedule> scheduled(KubernetesClient client, ScheduleTimes times, Optional<Instant> due) {
      if (due.isPresent()) {
        Optional<String> stalled = run(client, due.get());
        if (stalled.isPresent()) {
          // the due run stays due: once the template is fixed, it starts
          status.nextRunTime = due.get().toString();
          return stalled(client, TEMPLATE_REFUSED, stalled.get());
        }
      }
      Optional<Instant> next = times.nextAfter(now);
      status.nextRunTime = next.map(Instant::toString).orElse(null);
      String message = next.map(n -> "next run " + n.atZone(times.zone()).toOffsetDateTime() + " ("
          + times.zone().getId() + ")").orElse("the schedule fires no more");
      Conditions conditions = new Conditions(previous.conditions, generation, now.toString());
      conditions.kstatus(Kstatus.READY, new Kstatus.Wording("Scheduled", message),
          new Kstatus.Wording("Scheduled", "waiting for the next run"), new Kstatus.Wording("Scheduled", "valid"));
      Duration wait = next.map(n -> Duration.between(now, n)).filter(d -> d.compareTo(longestWait) < 0)
          .orElse(longestWait);
      return finish(client, conditions).rescheduleAfter(wait.compareTo(SHORTEST_WAIT) < 0 ? SHORTEST_WAIT : wait);
    }

    UpdateControl<BroodSchedule> suspended(KubernetesClient client) {
      status.nextRunTime = null;
      Conditions conditions = new Conditions(previous.conditions, generation, now.toString());
      Kstatus.Wording wording = new Kstatus.Wording("Suspended", "spec.suspend is true: no run starts; runs under"
          + " way go on");
      conditions.kstatus(Kstatus.suspended(Condition.Status.True), wording, wording, wording);
      return finish(client, conditions);
    }

    UpdateControl<BroodSchedule> stalled(KubernetesClient client, String reason, String message) {
      if (!TEMPLATE_REFUSED.equals(reason)) {
        status.nextRunTime = null;
      }
      Conditions conditions = new Conditions(previous.conditions, generation, now.toString());
      conditions.kstatus(Kstatus.STALLED, new Kstatus.Wording(reason, message),
          new Kstatus.Wording(reason, "waiting for a fix of the spec"), new Kstatus.Wording(reason, message));
      return finish(client, conditions);
    }

    /** Starts or skips the run due at {@code at}; a message when the API server refused the template. */
    private Optional<String> run(KubernetesClient client, Instant at) {
      BroodScheduleSpec spec = schedule.getSpec();
      String name = ScheduledOperation.name(schedule.getMetadata().getName(), at);
      Optional<BroodOperation> existing = owned.stream().filter(o -> o.getMetadata().getName().equals(name))
          .findFirst().or(() -> Optional.ofNullable(client.resources(BroodOperation.class)
              .inNamespace(namespace(schedule)).withName(name).get()));
      if (existing.isPresent()) {
        // started before (an operator restart, or a status write that was lost): never a second time
        started(at, name);
        return Optional.empty();
      }
      Duration late = Duration.between(at, now);
      if (spec.startingDeadlineSeconds != null && late.getSeconds() > spec.startingDeadlineSeconds) {
        skip(at, "the run of " + at + " was missed by " + late.getSeconds() + " s, more than"
            + " spec.startingDeadlineSeconds (" + spec.startingDeadlineSeconds + "); it is skipped, not started late");
        return Optional.empty();
      }
      List<BroodOperation> active = owned.stream().filter(o -> !ScheduledOperation.finished(o)).toList();
      String policy = spec.concurrencyPolicy == null ? FORBID : spec.concurrencyPolicy;
      if (!active.isEmpty() && FORBID.equals(policy)) {
        BroodOperation running = active.get(active.size() - 1);
        skip(at, "the run of " + at + " was skipped: BroodOperation " + running.getMetadata().getName() + " is still "
            + ScheduledOperation.phase(running).map(Enum::name).orElse(PENDING) + " and spec.concurrencyPolicy is "
            + FORBID);
        return Optional.empty();
      }
      if (REPLACE.equals(policy)) {
        for (BroodOperation replaced : active) {
          if (replaced.getSpec() == null || !Boolean.TRUE.equals(replaced.getSpec().cancel)) {
            client.resources(BroodOperation.class).inNamespace(namespace(schedule))
                .withName(replaced.getMetadata().getName())
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"cancel\":true}}");
            LOG.info("event=brood_schedule_run_replaced schedule={}/{} cancelled={}", namespace(schedule),
                schedule.getMetadata().getName(), replaced.getMetadata().getName());
          }
        }
      }
      BroodOperation operation = ScheduledOperation.render(schedule, at);
      try {
        owned.add(client.resources(BroodOperation.class).inNamespace(namespace(schedule)).resource(operation).create());
      } catch (KubernetesClientException e) {
        if (e.getCode() == 409) {
          started(at, name);
          return Optional.empty();
        }
        if (e.getCode() == 400 || e.getCode() == 422) {
          return Optional.of("BroodSchedule " + namespace(schedule) + "/" + schedule.getMetadata().getName()
              + ": the API server refused BroodOperation " + name + " made from spec.template: " + e.getMessage()
              + "; fix: correct spec.template as the message says");
        }
        throw e;
      }
      LOG.info("event=brood_schedule_run_started schedule={}/{} operation={} scheduled_time={} late_s={}",
          namespace(schedule), schedule.getMetadata().getName(), name, at, late.getSeconds());
      started(at, name);
      return Optional.empty();
    }

    private void started(Instant at, String name) {
      status.lastRunTime = at.toString();
      status.lastOperation = name;
      status.lastResult = PENDING;
      status.message = null;
    }

    private void skip(Instant at, String why) {
      status.lastResult = SKIPPED;
      status.message = why;
      LOG.info("event=brood_schedule_run_skipped schedule={}/{} scheduled_time={} reason=\"{}\"", namespace(schedule),
          schedule.getMetadata().getName(), at, why);
    }

    /** Trims the history, reads the last run's result and the active runs, and writes status if it changed. */
    private UpdateControl<BroodSchedule> finish(KubernetesClient client, Conditions conditions) {
      trimHistory(client);
      if (status.lastOperation != null && !SKIPPED.equals(status.lastResult)) {
        owned.stream().filter(o -> o.getMetadata().getName().equals(status.lastOperation)).findFirst()
            .ifPresent(o -> status.lastResult = ScheduledOperation.phase(o).map(Enum::name).orElse(PENDING));
      }
      status.active = owned.stream().filter(o -> !ScheduledOperation.finished(o))
          .map(o -> o.getMetadata().getName()).toList();
      status.conditions = conditions.build();
      if (JSON.asJson(status).equals(JSON.asJson(previous))) {
        return UpdateControl.noUpdate();
      }
      schedule.setStatus(status);
      // only this reconciler writes this status: no resourceVersion, so a lagging cache does not end in a 409
      schedule.getMetadata().setResourceVersion(null);
      return UpdateControl.patchStatus(schedule);
    }

    /** Deletes finished runs beyond the history limits, oldest first. */
    private void trimHistory(KubernetesClient client) {
      BroodScheduleSpec spec = schedule.getSpec();
      int successful = spec.successfulHistoryLimit == null ? BroodScheduleSpec.DEFAULT_SUCCESSFUL_HISTORY
          : spec.successfulHistoryLimit;
      int failed = spec.failedHistoryLimit == null ? BroodScheduleSpec.DEFAULT_FAILED_HISTORY : spec.failedHistoryLimit;
      List<BroodOperation> beyond = new ArrayList<>();
      beyond.addAll(beyondLimit(List.of(BroodOperationStatus.Phase.Succeeded), successful));
      beyond.addAll(beyondLimit(List.of(BroodOperationStatus.Phase.Failed, BroodOperationStatus.Phase.Cancelled),
          failed));
      for (BroodOperation operation : beyond) {
        client.resources(BroodOperation.class).inNamespace(namespace(schedule))
            .withName(operation.getMetadata().getName()).delete();
        owned.remove(operation);
        LOG.info("event=brood_schedule_history_deleted schedule={}/{} operation={} phase={}", namespace(schedule),
            schedule.getMetadata().getName(), operation.getMetadata().getName(),
            ScheduledOperation.phase(operation).map(Enum::name).orElse(""));
      }
    }

    private List<BroodOperation> beyondLimit(List<BroodOperationStatus.Phase> phases, int limit) {
      List<BroodOperation> finished = owned.stream()
          .filter(o -> ScheduledOperation.phase(o).map(phases::contains).orElse(false)).toList();
      return finished.subList(0, Math.max(0, finished.size() - limit));
    }
  }
}
