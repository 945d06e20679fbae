package dev.varroa.operator.hibernation;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.operator.apply.OwnedObjectApplier;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.operator.events.EventRecorder;
import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays the deliveries the waker kept, oldest first, through the mite's ReplayDelivery command once the controller
 * is up, one controller's replays at a time and in order. A delivery Jenkins took is deleted; one it can never take
 * (refused as malformed, or answered 4xx) is deleted with a Warning event; another failure is tried again with a
 * growing pause, at most {@value #MAX_ATTEMPTS} times in all.
 */
final class DeliveryReplayer implements AutoCloseable {
  /** Attempts per delivery, the first included. */
  static final int MAX_ATTEMPTS = 5;
  /** The pause after the first failed attempt; it doubles with each further one. */
  static final Duration FIRST_RETRY = Duration.ofSeconds(15);
  /** The mite's deadline for one replay: Jenkins answers a webhook at once and builds later. */
  static final Duration REPLAY_DEADLINE = Duration.ofSeconds(60);
  private static final Duration ANSWER_SLACK = Duration.ofSeconds(10);
  private static final Logger LOG = LoggerFactory.getLogger(DeliveryReplayer.class);

  /** What became of one replay. */
  enum Verdict {
    REPLAYED,
    /** Never to be taken: dropped now. */
    REFUSED,
    /** Worth another attempt. */
    RETRY
  }

  private final ControlChannel channel;
  private final Clock clock;
  private final Consumer<ControllerIdentity> finished;
  private final ExecutorService executor = Executors.newFixedThreadPool(2, runnable -> {
    Thread thread = new Thread(runnable, "delivery-replay");
    thread.setDaemon(true);
    return thread;
  });
  private final Set<String> running = ConcurrentHashMap.newKeySet();
  private final Map<String, Instant> notBefore = new ConcurrentHashMap<>();

  /** @param finished told when a controller's replays stopped, so a pass reports what is left */
  DeliveryReplayer(ControlChannel channel, Clock clock, Consumer<ControllerIdentity> finished) {
    this.channel = channel;
    this.clock = clock;
    this.finished = finished;
  }

  /**
   * Starts replaying this controller's kept deliveries unless a replay runs or a retry waits.
   *
   * @return when a waiting retry is due
   */
  Optional<Instant> replay(KubernetesClient client, Controller controller, ControllerIdentity id) {
    Instant due = notBefore.get(id.uid());
    if (due != null && due.isAfter(clock.instant())) {
      return Optional.of(due);
    }
    if (running.add(id.uid())) {
      notBefore.remove(id.uid());
      executor.execute(() -> {
        try {
          replayAll(client, controller, id);
        } catch (RuntimeException e) {
          LOG.warn("event=delivery_replay_failed controller={} error=\"{}\"", id.routeKey(), e.getMessage());
          notBefore.put(id.uid(), clock.instant().plus(FIRST_RETRY));
        } finally {
          running.remove(id.uid());
          finished.accept(id);
        }
      });
    }
    return Optional.empty();
  }

  void forget(String uid) {
    notBefore.remove(uid);
  }

  private void replayAll(KubernetesClient client, Controller controller, ControllerIdentity id) {
    String selector = ControllerLabels.CONTROLLER + "=" + ControllerLabels.value(id.name()) + ","
        + WakeRequests.KIND_LABEL + "=" + WakeRequests.DELIVERY;
    List<Secret> kept = WakeRequests.oldestFirst(client.secrets().inNamespace(id.namespace()).withLabelSelector(selector)
        .list().getItems().stream().filter(s -> ownedBy(s, id.uid())).toList());
    EventRecorder events = new EventRecorder(client, OwnedObjectApplier.FIELD_MANAGER, clock);
    for (Secret secret : kept) {
      String name = secret.getMetadata().getName();
      KeptDelivery delivery;
      try {
        delivery = KeptDelivery.of(secret);
      } catch (IllegalArgumentException e) {
        drop(client, events, controller, secret, e.getMessage());
        continue;
      }
      if (!delivery.replayable()) {
        // kept before the waker kept webhook routes only, or written by someone else: never replayed into Jenkins
        drop(client, events, controller, secret, delivery.method() + " " + delivery.pathOnly() + " is not a webhook"
            + " route the waker keeps (docs/hibernation.md#replayable-routes)");
        continue;
      }
      CommandResult result = send(id, delivery);
      Verdict verdict = verdict(result);
      if (verdict == Verdict.REPLAYED) {
        delete(client, secret);
        LOG.info("event=delivery_replayed controller={} secret={} jenkins_status={} waited_ms={}", id.routeKey(), name,
            result.getJenkinsStatus(), Duration.between(delivery.receivedAt(), clock.instant()).toMillis());
        continue;
      }
      String why = result.getOutcome() + (result.getJenkinsStatus() == 0 ? "" : " (HTTP " + result.getJenkinsStatus()
          + ")") + ": " + result.getMessage();
      int attempts = WakeRequests.attempts(secret) + 1;
      if (verdict == Verdict.REFUSED || attempts >= MAX_ATTEMPTS) {
        drop(client, events, controller, secret, "after " + attempts + " attempt(s), " + why);
        continue;
      }
      client.secrets().inNamespace(id.namespace()).withName(name).edit(s -> {
        java.util.Map<String, String> annotations = s.getMetadata().getAnnotations() == null
            ? new java.util.HashMap<>() : new java.util.HashMap<>(s.getMetadata().getAnnotations());
        annotations.put(WakeRequests.REPLAY_ATTEMPTS, String.valueOf(attempts));
        annotations.put(WakeRequests.REPLAY_ERROR, why);
        s.getMetadata().setAnnotations(annotations);
        return s;
      });
      Instant retry = clock.instant().plus(FIRST_RETRY.multipliedBy(1L << (attempts - 1)));
      notBefore.put(id.uid(), retry);
      LOG.info("event=delivery_replay_retry controller={} secret={} attempt={} retry_at={} reason=\"{}\"",
          id.routeKey(), name, attempts, retry, why);
      // later deliveries wait: Jenkins gets them in the order they were sent
      return;
    }
  }

  private CommandResult send(ControllerIdentity id, KeptDelivery delivery) {
    Command command = Command.newBuilder().setCommandId(UUID.randomUUID().toString())
        .setDeadlineEpochMillis(clock.instant().plus(REPLAY_DEADLINE).toEpochMilli())
        .setReplayDelivery(delivery.replay()).build();
    try {
      return channel.send(id, command).get(REPLAY_DEADLINE.plus(ANSWER_SLACK).toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return failure(command, "interrupted");
    } catch (ExecutionException | TimeoutException e) {
      return failure(command, "no answer from the control channel: " + e.getClass().getSimpleName());
    }
  }

  private static CommandResult failure(Command command, String message) {
    return CommandResult.newBuilder().setCommandId(command.getCommandId())
        .setOutcome(CommandResult.Outcome.DEADLINE_EXCEEDED).setMessage(message).build();
  }

  /** REJECTED and a 4xx from Jenkins (but 408 and 429) will never succeed; anything else may. */
  static Verdict verdict(CommandResult result) {
    if (result.getOutcome() == CommandResult.Outcome.SUCCEEDED) {
      return Verdict.REPLAYED;
    }
    if (result.getOutcome() == CommandResult.Outcome.REJECTED) {
      return Verdict.REFUSED;
    }
    int status = result.getJenkinsStatus();
    boolean clientError = status >= 400 && status < 500 && status != 408 && status != 429;
    return result.getOutcome() == CommandResult.Outcome.FAILED && clientError ? Verdict.REFUSED : Verdict.RETRY;
  }

  private void drop(KubernetesClient client, EventRecorder events, Controller controller, Secret secret, String why) {
    delete(client, secret);
    LOG.warn("event=delivery_dropped controller={}/{} secret={} reason=\"{}\"", controller.getMetadata().getNamespace(),
        controller.getMetadata().getName(), secret.getMetadata().getName(), why);
    events.warningOnce(controller, "DeliveryDropped", "the webhook delivery " + secret.getMetadata().getName()
        + " kept while the controller was parked was not replayed to Jenkins: " + why
        + "; ask its sender to deliver it again", Optional.empty());
  }

  private static void delete(KubernetesClient client, Secret secret) {
    try {
      client.resource(secret).delete();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
  }

  static boolean ownedBy(Secret secret, String uid) {
    return secret.getMetadata().getOwnerReferences() != null
        && secret.getMetadata().getOwnerReferences().stream().anyMatch(o -> uid.equals(o.getUid()));
  }

  @Override
  public void close() throws InterruptedException {
    executor.shutdownNow();
    executor.awaitTermination(5, TimeUnit.SECONDS);
  }
}
