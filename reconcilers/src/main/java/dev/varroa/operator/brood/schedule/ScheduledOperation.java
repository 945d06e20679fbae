package dev.varroa.operator.brood.schedule;

import dev.varroa.api.v1alpha1.BroodOperation;
import dev.varroa.api.v1alpha1.BroodOperationSpec;
import dev.varroa.api.v1alpha1.BroodOperationStatus;
import dev.varroa.api.v1alpha1.BroodSchedule;
import dev.varroa.api.v1alpha1.BroodScheduleSpec;
import dev.varroa.operator.render.naming.ControllerLabels;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** The BroodOperation one run of a schedule creates, and what the schedule reads back from one. Pure. */
public final class ScheduledOperation {
  /** On every BroodOperation a schedule created: the schedule's name (as a label value). */
  public static final String SCHEDULE_LABEL = "varroa.dev/brood-schedule";
  /** The scheduled time (RFC 3339) the run was for, which orders the history. */
  public static final String SCHEDULED_TIME_ANNOTATION = "varroa.dev/brood-schedule-time";
  /** Kubernetes' limit on an object name. */
  static final int MAX_NAME = 253;
  /** The digits of unix minutes, with room to spare until the year 20000. */
  static final int MINUTE_DIGITS = 10;
  /** The longest schedule name whose operation names still fit. */
  public static final int MAX_SCHEDULE_NAME = MAX_NAME - 1 - MINUTE_DIGITS;
  /** A BroodOperation phase in which it will not change again. */
  static final Set<BroodOperationStatus.Phase> FINISHED = Set.of(BroodOperationStatus.Phase.Succeeded,
      BroodOperationStatus.Phase.Failed, BroodOperationStatus.Phase.Cancelled);
  /** Oldest run first: by scheduled time, then creation, then name. */
  static final Comparator<BroodOperation> OLDEST_FIRST = Comparator
      .comparing((BroodOperation o) -> scheduledTime(o).orElse(""))
      .thenComparing(o -> String.valueOf(o.getMetadata().getCreationTimestamp()))
      .thenComparing(o -> o.getMetadata().getName());
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private ScheduledOperation() {}

  /** {@code <schedule>-<unix minutes of the scheduled time>}: one name per run, so a run never starts twice. */
  public static String name(String schedule, Instant scheduledTime) {
    return schedule + "-" + Math.floorDiv(scheduledTime.getEpochSecond(), 60);
  }

  /** The BroodOperation for the run at {@code scheduledTime}: the template, owned by the schedule. */
  public static BroodOperation render(BroodSchedule schedule, Instant scheduledTime) {
    BroodScheduleSpec.Template template = schedule.getSpec().template;
    Map<String, String> labels = new TreeMap<>();
    Map<String, String> annotations = new TreeMap<>();
    if (template.metadata != null) {
      Optional.ofNullable(template.metadata.labels).ifPresent(labels::putAll);
      Optional.ofNullable(template.metadata.annotations).ifPresent(annotations::putAll);
    }
    labels.put(SCHEDULE_LABEL, ControllerLabels.value(schedule.getMetadata().getName()));
    annotations.put(SCHEDULED_TIME_ANNOTATION, scheduledTime.toString());
    BroodOperation operation = new BroodOperation();
    operation.setMetadata(new ObjectMetaBuilder()
        .withName(name(schedule.getMetadata().getName(), scheduledTime))
        .withNamespace(schedule.getMetadata().getNamespace())
        .withLabels(labels)
        .withAnnotations(annotations)
        .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(schedule.getApiVersion())
            .withKind(schedule.getKind()).withName(schedule.getMetadata().getName())
            .withUid(schedule.getMetadata().getUid()).withController(true).build())
        .build());
    // a copy: the template in the schedule's cache stays as it is
    operation.setSpec(JSON.unmarshal(JSON.asJson(template.spec), BroodOperationSpec.class));
    return operation;
  }

  /** True when the schedule with this uid created the operation. */
  static boolean ownedBy(BroodOperation operation, String scheduleUid) {
    return operation.getMetadata().getOwnerReferences() != null && operation.getMetadata().getOwnerReferences()
        .stream().anyMatch(r -> scheduleUid != null && scheduleUid.equals(r.getUid()));
  }

  static boolean finished(BroodOperation operation) {
    return phase(operation).map(FINISHED::contains).orElse(false);
  }

  /** The operation's phase, empty until the engine set one. */
  static Optional<BroodOperationStatus.Phase> phase(BroodOperation operation) {
    return Optional.ofNullable(operation.getStatus()).map(s -> s.phase);
  }

  static Optional<String> scheduledTime(BroodOperation operation) {
    Map<String, String> annotations = operation.getMetadata().getAnnotations();
    return Optional.ofNullable(annotations == null ? null : annotations.get(SCHEDULED_TIME_ANNOTATION));
  }
}
