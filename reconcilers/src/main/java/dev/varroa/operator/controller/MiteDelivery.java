package dev.varroa.operator.controller;

import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.MiteRoute;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pushes desired state to a connected mite: on each new connection and on each new render, once, and again for each
 * new varroa.dev/reapply value though the mite holds it (docs/controllers.md). The mite reports the digest it holds
 * and status.lastApplyResult.trigger the last reapply value served, so a restarted operator reloads no Jenkins again.
 * A result that came back is kept for status until a newer one replaces it.
 */
final class MiteDelivery {
  private static final Logger LOG = LoggerFactory.getLogger(MiteDelivery.class);

  /**
   * One push: to which stream, of what, the varroa.dev/reapply value it serves (or carries on, null when none), and
   * its outcome once known.
   */
  record Push(String sessionId, String desiredDigest, String bundleDigest, String trigger,
      CompletableFuture<CommandResult> result) {}

  /** A finished push, as status reports it, with the varroa.dev/reapply value it served (null when none). */
  record Finished(String bundleDigest, CommandResult result, String trigger) {
    boolean succeeded() {
      return result.getOutcome() == CommandResult.Outcome.SUCCEEDED;
    }

    Instant finishedAt() {
      return Instant.ofEpochMilli(result.getFinishedAtEpochMillis());
    }
  }

  private final ControlChannel channel;
  private final Clock clock;
  private final Consumer<ControllerIdentity> finished;
  private final Map<String, Push> pushes = new ConcurrentHashMap<>();
  private final Map<String, Finished> results = new ConcurrentHashMap<>();

  /** @param finished told when a push ends, so the Controller is reconciled and its status updated */
  MiteDelivery(ControlChannel channel, Clock clock, Consumer<ControllerIdentity> finished) {
    this.channel = channel;
    this.clock = clock;
    this.finished = finished;
  }

  /**
   * Pushes unless the mite already holds this state or this push is under way or was answered on this stream; pushes
   * anyway for a varroa.dev/reapply value not served yet. One push at a time: a value that arrives meanwhile is served
   * by the push after it.
   *
   * @param reapply the varroa.dev/reapply annotation's value, empty when none
   * @param servedBefore status.lastApplyResult.trigger as last written: the value served before this operator started
   */
  void deliver(ControllerIdentity controller, MiteRoute route, DesiredFiles files, String bundleDigest,
      Duration deadline, Optional<String> reapply, Optional<String> servedBefore) {
    String digest = files.digest();
    Push last = pushes.get(controller.routeKey());
    if (last != null && !last.result().isDone()) {
      return;
    }
    Optional<String> served = last != null ? Optional.ofNullable(last.trigger()) : servedBefore;
    boolean asked = reapply.filter(value -> !value.isEmpty()).filter(value -> !served.equals(Optional.of(value)))
        .isPresent();
    if (!asked) {
      if (digest.equals(route.getObserved().getAppliedBundleDigest())) {
        return;
      }
      if (last != null && last.sessionId().equals(route.getSessionId()) && last.desiredDigest().equals(digest)) {
        return;
      }
    }
    // a push for a changed render keeps the value already served, so that value is not served again after a restart
    String trigger = reapply.filter(value -> !value.isEmpty()).orElse(null);
    Command command = Command.newBuilder()
        .setCommandId(UUID.randomUUID().toString())
        .setDeadlineEpochMillis(clock.instant().plus(deadline).toEpochMilli())
        .setDesiredState(files.toDesiredState(channel.jenkinsTokens().issue(controller, clock.instant())))
        .build();
    LOG.info("event=desired_state_push controller={} session={} digest={} command={} reapply={} files={}",
        controller.routeKey(), route.getSessionId(), digest, command.getCommandId(), asked ? trigger : "", files);
    CompletableFuture<CommandResult> result = channel.send(controller, command);
    Push push = new Push(route.getSessionId(), digest, bundleDigest, trigger, result);
    pushes.put(controller.routeKey(), push);
    result.thenAccept(r -> {
      LOG.info("event=desired_state_result controller={} command={} outcome={} jenkins_status={}",
          controller.routeKey(), r.getCommandId(), r.getOutcome(), r.getJenkinsStatus());
      if (r.getOutcome() == CommandResult.Outcome.NOT_CONNECTED) {
        // the stream went away between route and send: the next connection gets a fresh push
        pushes.remove(controller.routeKey(), push);
      } else if (r.getOutcome() == CommandResult.Outcome.SEALED_TO_OTHER_KEY) {
        // the mite's key changed after the route was read: its new stream's route brings the new key, and the push
        // kept here for the old session makes the next pass seal again to that key, not apply-failed status; a
        // reapply value it carried is not served yet
        LOG.info("event=desired_state_reseal controller={} command={} reason=\"{}\"", controller.routeKey(),
            r.getCommandId(), r.getMessage());
        if (asked) {
          pushes.replace(controller.routeKey(), push, new Push(push.sessionId(), push.desiredDigest(),
              push.bundleDigest(), served.orElse(null), push.result()));
        }
      } else {
        results.put(controller.routeKey(), new Finished(bundleDigest, r, trigger));
      }
      finished.accept(controller);
    });
  }

  Optional<Finished> lastResult(ControllerIdentity controller) {
    return Optional.ofNullable(results.get(controller.routeKey()));
  }

  void forget(ControllerIdentity controller) {
    pushes.remove(controller.routeKey());
    results.remove(controller.routeKey());
  }
}
