package dev.varroa.operator.brood;

import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.MiteRoute;
import dev.varroa.protocol.mite.v1.ObservedState;
import dev.varroa.protocol.mite.v1.OneShot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Plays the mites of one cluster and the Jenkins behind them, as the operator sees them through the control channel:
 * what each reports (running builds, quiet-down, when Jenkins came up) and how Jenkins takes the one-shot commands —
 * quiet-down and its cancel at once, a safe restart once no build runs (Jenkins' own /safeRestart, docs/mite.md).
 * The queue's dedupe is played too: a command id seen before is dropped. Every command is recorded.
 */
final class PlayedJenkins implements JenkinsOfController {
  record Sent(String controller, OneShot.Action action, String commandId) {}

  private static final class Jenkins {
    int running;
    boolean quiet;
    boolean restartPending;
    Instant upSince = Instant.now().minusSeconds(3600);
  }

  private final Map<String, Jenkins> jenkins = new ConcurrentHashMap<>();
  private final Set<String> seen = ConcurrentHashMap.newKeySet();
  private final List<Sent> sent = java.util.Collections.synchronizedList(new ArrayList<>());
  private final Set<String> disconnected = ConcurrentHashMap.newKeySet();

  private Jenkins of(String namespace, String name) {
    return jenkins.computeIfAbsent(namespace + "/" + name, k -> new Jenkins());
  }

  /** Builds running now in this controller's Jenkins; a pending safe restart happens once they reach 0. */
  synchronized void running(String namespace, String name, int builds) {
    Jenkins j = of(namespace, name);
    j.running = builds;
    restartIfIdle(j);
  }

  synchronized void disconnect(String namespace, String name) {
    disconnected.add(namespace + "/" + name);
  }

  List<Sent> sent() {
    synchronized (sent) {
      return List.copyOf(sent);
    }
  }

  long count(String namespace, String name, OneShot.Action action) {
    return sent().stream().filter(s -> s.controller().equals(namespace + "/" + name) && s.action() == action).count();
  }

  @Override
  public synchronized Optional<MiteRoute> route(ControllerIdentity controller) {
    String key = controller.namespace() + "/" + controller.name();
    if (disconnected.contains(key)) {
      return Optional.empty();
    }
    Jenkins j = of(controller.namespace(), controller.name());
    return Optional.of(MiteRoute.newBuilder().setController(controller.toRef()).setGatewayId("gw-played")
        .setConnectedAtEpochMillis(j.upSince.toEpochMilli())
        .setObserved(ObservedState.newBuilder().setJenkinsReachable(true).setQuietingDown(j.quiet)
            .setRunningBuilds(j.running).setJenkinsUpSinceEpochMillis(j.upSince.toEpochMilli() / 1000 * 1000))
        .build());
  }

  @Override
  public synchronized void oneShot(ControllerIdentity controller, OneShot.Action action, String commandId,
      Instant deadline) {
    if (!seen.add(commandId)) {
      return;
    }
    sent.add(new Sent(controller.namespace() + "/" + controller.name(), action, commandId));
    Jenkins j = of(controller.namespace(), controller.name());
    switch (action) {
      case QUIET_DOWN -> j.quiet = true;
      case CANCEL_QUIET_DOWN -> j.quiet = false;
      case SAFE_RESTART -> {
        j.quiet = true;
        j.restartPending = true;
        restartIfIdle(j);
      }
      default -> { }
    }
  }

  private static void restartIfIdle(Jenkins j) {
    if (j.restartPending && j.running == 0) {
      j.restartPending = false;
      j.quiet = false;
      // Jenkins comes back a second later than asked, as a restart takes time
      j.upSince = Instant.now().plusSeconds(1);
    }
  }
}
