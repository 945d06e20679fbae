package dev.varroa.operator.hibernation;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.operator.apply.OwnerReferences;
import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.operator.render.naming.StatefulSetName;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the waker keeps for a controller, as Secrets in the controller's namespace owned by the Controller (so they go
 * with it): one per webhook delivery, and one that says a browser visited. Each Secret's creation starts a pass of the
 * Controller; the reconciler wakes it, replays the deliveries once it is up and deletes what it consumed.
 */
public final class WakeRequests {
  /** The Secrets' type; the label below says which kind each is. */
  public static final String SECRET_TYPE = "varroa.dev/wake-request";
  /** Label: {@value #DELIVERY} or {@value #VISIT}. */
  public static final String KIND_LABEL = "varroa.dev/wake-request";
  public static final String DELIVERY = "delivery";
  public static final String VISIT = "visit";
  /** When the waker received it (RFC 3339 with milliseconds): deliveries are replayed in this order. */
  public static final String RECEIVED_AT = "varroa.dev/received-at";
  /** Replays tried so far, and the last failure, kept on the Secret so an operator restart keeps counting. */
  public static final String REPLAY_ATTEMPTS = "varroa.dev/replay-attempts";
  public static final String REPLAY_ERROR = "varroa.dev/replay-error";
  static final String VISIT_SUFFIX = "-wake-visit";
  static final String DELIVERY_INFIX = "-delivery-";
  private static final DateTimeFormatter NAME_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmssSSS")
      .withZone(ZoneOffset.UTC);

  private WakeRequests() {}

  /** The one visit Secret of a controller: a visit while one is pending adds nothing. */
  static Secret visit(Controller controller, Instant at) {
    return secret(controller, statefulSet(controller) + VISIT_SUFFIX, VISIT, at, Map.of());
  }

  /** A delivery Secret; {@code unique} tells two deliveries of the same millisecond apart. */
  static Secret delivery(Controller controller, KeptDelivery delivery, String unique) {
    String name = statefulSet(controller) + DELIVERY_INFIX + NAME_TIME.format(delivery.receivedAt()) + "-" + unique;
    return secret(controller, name, DELIVERY, delivery.receivedAt(), delivery.data());
  }

  private static Secret secret(Controller controller, String name, String kind, Instant at, Map<String, String> data) {
    Map<String, String> labels = new TreeMap<>(ControllerLabels.of(controller.getMetadata().getName()));
    labels.put(KIND_LABEL, kind);
    return new SecretBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(controller.getMetadata().getNamespace())
        .withLabels(labels)
        .withAnnotations(Map.of(RECEIVED_AT, at.toString()))
        .withOwnerReferences(OwnerReferences.controller(controller))
        .endMetadata()
        .withType(SECRET_TYPE)
        .withData(data)
        .build();
  }

  static String statefulSet(Controller controller) {
    return StatefulSetName.of(controller.getMetadata().getName(), controller.getMetadata().getUid());
  }

  static Optional<String> kind(Secret secret) {
    Map<String, String> labels = secret.getMetadata().getLabels();
    return Optional.ofNullable(labels == null ? null : labels.get(KIND_LABEL));
  }

  /** When it was received; its creation time when the annotation is missing or unreadable. */
  static Instant receivedAt(Secret secret) {
    Map<String, String> annotations = secret.getMetadata().getAnnotations();
    String at = annotations == null ? null : annotations.get(RECEIVED_AT);
    try {
      return Instant.parse(at);
    } catch (RuntimeException e) {
      String created = secret.getMetadata().getCreationTimestamp();
      return created == null ? Instant.EPOCH : Instant.parse(created);
    }
  }

  static int attempts(Secret secret) {
    Map<String, String> annotations = secret.getMetadata().getAnnotations();
    try {
      return annotations == null ? 0 : Integer.parseInt(annotations.getOrDefault(REPLAY_ATTEMPTS, "0"));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** Oldest first, by the time received, then by name. */
  static List<Secret> oldestFirst(List<Secret> secrets) {
    return secrets.stream().sorted(Comparator.comparing(WakeRequests::receivedAt)
        .thenComparing(s -> s.getMetadata().getName())).toList();
  }
}
