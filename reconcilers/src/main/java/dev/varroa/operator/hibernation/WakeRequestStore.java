package dev.varroa.operator.hibernation;

import dev.varroa.api.v1alpha1.Controller;
import java.time.Instant;

/** Where the waker keeps what wakes a controller: visits and webhook deliveries (Secrets, in production). */
public interface WakeRequestStore {
  /** Most deliveries kept for one controller; a sender beyond it is asked to retry later (503). */
  int MAX_KEPT_DELIVERIES = 100;

  /** Records that someone visited; a visit already pending is enough. */
  void visit(Controller controller, Instant at);

  /** Keeps one delivery until it is replayed. */
  Kept keep(Controller controller, KeptDelivery delivery);

  /** What became of a delivery. */
  sealed interface Kept {
    /** Kept under this name. */
    record Stored(String name) implements Kept {}

    /** Not kept: {@code limit} deliveries already wait for this controller. */
    record Full(int limit) implements Kept {}

    /** Not kept: the deliveries kept in the whole cluster already hold close to {@code capBytes}. */
    record OverCap(long capBytes) implements Kept {}
  }
}
