package dev.varroa.operator.controller;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.protocol.bus.ActivityPublisher;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Controller lifecycle as activity (docs/activity.md): created, phase changed, desired state applied or
 * refused, deleted. Called where the reconciler writes the status, with the status before and after; the publisher
 * never blocks a pass nor fails it.
 */
public final class ControllerActivity {

  public static final String CREATED = "controller.created";
  public static final String PHASE_CHANGED = "controller.phase_changed";
  public static final String APPLY_SUCCEEDED = "controller.apply_succeeded";
  public static final String APPLY_FAILED = "controller.apply_failed";
  public static final String DELETED = "controller.deleted";
  /** The inactivity policy parked the controller (docs/hibernation.md). */
  public static final String HIBERNATED = "controller.hibernated";
  /** A parked controller was woken; the source says by what. */
  public static final String WOKEN = "controller.woken";

  private final ActivityPublisher publisher;
  /**
   * The last status this operator wrote, by Controller UID. The informer may hand the next pass a Controller from
   * before that write (status is patched without a resourceVersion), so a change is judged against what was
   * written, not against the cache: each change is published once.
   */
  private final Map<String, ControllerStatus> written = new ConcurrentHashMap<>();

  public ControllerActivity(ActivityPublisher publisher) {
    this.publisher = publisher;
  }

  /** What changed between the written status and the one before it (an empty status for a new Controller). */
  void statusWritten(Controller controller, ControllerStatus cached, ControllerStatus status) {
    String namespace = controller.getMetadata().getNamespace();
    String name = controller.getMetadata().getName();
    String uid = Objects.toString(controller.getMetadata().getUid(), "");
    ControllerStatus previous = uid.isEmpty() ? cached : written.getOrDefault(uid, cached);
    if (!uid.isEmpty()) {
      written.put(uid, status);
    }
    if (previous.phase == null && status.phase != null) {
      // The first status a Controller ever gets: the operator saw it for the first time.
      publisher.controller(namespace, name, CREATED, "Controller created, phase " + status.phase,
          Map.of("uid", Objects.toString(controller.getMetadata().getUid(), ""), "phase", status.phase.name()));
    } else if (previous.phase != null && status.phase != null && previous.phase != status.phase) {
      publisher.controller(namespace, name, PHASE_CHANGED, "phase " + previous.phase + " -> " + status.phase,
          Map.of("from", previous.phase.name(), "to", status.phase.name()));
    }
    if (newResult(previous.lastApplyResult, status.lastApplyResult)) {
      ControllerStatus.ApplyResult result = status.lastApplyResult;
      boolean succeeded = Boolean.TRUE.equals(result.succeeded);
      Map<String, String> attributes = new LinkedHashMap<>();
      put(attributes, "bundleDigest", result.bundleDigest);
      put(attributes, "appliedAt", result.appliedAt);
      put(attributes, "message", result.message);
      String digest = result.bundleDigest == null ? "" : " " + result.bundleDigest;
      publisher.controller(namespace, name, succeeded ? APPLY_SUCCEEDED : APPLY_FAILED,
          succeeded ? "desired state" + digest + " applied"
              : "desired state" + digest + " refused: " + Objects.toString(result.message, "no message"),
          attributes);
    }
  }

  /** The inactivity policy parked the controller, for this reason. */
  public void hibernated(Controller controller, String reason) {
    publisher.controller(controller.getMetadata().getNamespace(), controller.getMetadata().getName(), HIBERNATED,
        "parked: " + reason, Map.of("reason", reason));
  }

  /** A parked controller was woken by an annotation, a webhook, a browser, its timer or its policy's removal. */
  public void woken(Controller controller, String source) {
    publisher.controller(controller.getMetadata().getNamespace(), controller.getMetadata().getName(), WOKEN,
        "woken by " + source, Map.of("source", source));
  }

  void deleted(Controller controller) {
    if (controller.getMetadata().getUid() != null) {
      written.remove(controller.getMetadata().getUid());
    }
    ControllerStatus status = controller.getStatus();
    Map<String, String> attributes = new LinkedHashMap<>();
    put(attributes, "uid", controller.getMetadata().getUid());
    put(attributes, "phase", status == null || status.phase == null ? null : status.phase.name());
    publisher.controller(controller.getMetadata().getNamespace(), controller.getMetadata().getName(), DELETED,
        "Controller deleted", attributes);
  }

  private static boolean newResult(ControllerStatus.ApplyResult before, ControllerStatus.ApplyResult after) {
    if (after == null || after.succeeded == null) {
      return false;
    }
    return before == null || !Objects.equals(before.appliedAt, after.appliedAt)
        || !Objects.equals(before.succeeded, after.succeeded)
        || !Objects.equals(before.bundleDigest, after.bundleDigest);
  }

  private static void put(Map<String, String> attributes, String key, String value) {
    if (value != null && !value.isEmpty()) {
      attributes.put(key, value);
    }
  }
}
