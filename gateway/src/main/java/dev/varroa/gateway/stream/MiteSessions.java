package dev.varroa.gateway.stream;

import dev.varroa.protocol.ControllerIdentity;
import io.grpc.Status;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The streams this gateway holds, one per controller (route key): a newer stream replaces an older one. */
public final class MiteSessions {

  private final Map<String, MiteSession> byRouteKey = new ConcurrentHashMap<>();

  /** Makes this the controller's session; returns the one it replaced, if any. */
  Optional<MiteSession> adopt(MiteSession session) {
    return Optional.ofNullable(byRouteKey.put(session.identity().routeKey(), session));
  }

  /** Forgets the session unless a newer one took its place already. */
  void release(MiteSession session) {
    byRouteKey.remove(session.identity().routeKey(), session);
  }

  /** The open session of exactly this controller (same uid: a recreated controller is another one). */
  public Optional<MiteSession> find(ControllerIdentity controller) {
    MiteSession session = byRouteKey.get(controller.routeKey());
    if (session == null || !session.isOpen() || !session.identity().equals(controller)) {
      return Optional.empty();
    }
    return Optional.of(session);
  }

  public List<MiteSession> all() {
    return List.copyOf(byRouteKey.values());
  }

  /** Ends every stream (a graceful stop) and waits, bounded, until their routes are released. */
  public void closeAll(Status status, Duration waitForRoutes) throws InterruptedException {
    List<MiteSession> held = all();
    held.forEach(session -> session.close(status));
    for (MiteSession session : held) {
      session.awaitQueuedWrites(waitForRoutes);
    }
  }

  public int size() {
    return byRouteKey.size();
  }
}
