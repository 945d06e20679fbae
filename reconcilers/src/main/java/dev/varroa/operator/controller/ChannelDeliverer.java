package dev.varroa.operator.controller;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerAnnotations;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.operator.apply.ObjectOwnership;
import dev.varroa.operator.apply.OwnedObjectApplier;
import dev.varroa.operator.channel.BootstrapTokenIssuer;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.operator.render.RenderInput;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.MiteRoute;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.nats.client.JetStreamApiException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The delivery step of a Controller pass: a bootstrap token for a mite that has no stream, the desired
 * state (JCasC and secret values) for one that has, pushed again for a new varroa.dev/reapply value. Says
 * what status should report of the mite and when the pass must look again because time, not an event,
 * changes something.
 */
final class ChannelDeliverer {
  /** How soon a pass looks again when the bus could not answer for bootstrap tokens. */
  static final Duration RETRY_AFTER_BUS_ERROR = Duration.ofSeconds(10);
  private static final Logger LOG = LoggerFactory.getLogger(ChannelDeliverer.class);

  /** What delivery found: the mite as status shows it, a time-driven recheck, or a block naming the fix. */
  record Delivered(ControllerStatusAggregator.MiteObservation mite, Optional<Duration> recheck,
      Optional<String> blocked) {}

  private final ControlChannel channel;
  private final MiteDelivery delivery;
  private final Clock clock;

  ChannelDeliverer(ControlChannel channel, MiteDelivery delivery, Clock clock) {
    this.channel = channel;
    this.delivery = delivery;
    this.clock = clock;
  }

  Delivered deliver(KubernetesClient client, OwnedObjectLookup caches, Controller controller, ControllerInputs inputs,
      RenderInput input, List<HasMetadata> objects, Pod pod, ControllerStatus previous) {
    ControllerIdentity id = identity(controller);
    Optional<MiteRoute> route = channel.routes().live(id);
    Optional<Duration> recheck = Optional.empty();
    // a connected mite holds its certificate and needs no token
    if (!inputs.resolved().stopped() && route.isEmpty()) {
      TokenStep token = ensureBootstrapToken(client, caches, controller, id, input, pod);
      if (token.refused().isPresent()) {
        return new Delivered(null, Optional.empty(), token.refused());
      }
      recheck = token.recheck();
    }
    if (route.isPresent()) {
      SecretValues values = caches.secretValues();
      MiteSecrets.Resolution secrets = MiteSecrets.resolve(
          name -> values.read(client, id.namespace(), name), inputs.resolved());
      if (secrets.problem().isPresent()) {
        return new Delivered(null, Optional.empty(), secrets.problem());
      }
      Map<String, byte[]> secretFiles = new LinkedHashMap<>(secrets.values());
      if (inputs.cell().isPresent()) {
        // tenant credentials: sealed like every secret file, never in the JCasC text or a ConfigMap (docs/cells.md)
        MiteSecrets.Resolution credentials = TeamCredentials.resolve((namespace, name) -> values.read(client, namespace,
            name), inputs.cell().get());
        if (credentials.problem().isPresent()) {
          return new Delivered(null, Optional.empty(), credentials.problem());
        }
        secretFiles.putAll(credentials.values());
      }
      ConfigMap casc = objects.stream().filter(o -> o instanceof ConfigMap
          && o.getMetadata().getName().equals(input.names().cascConfigMap())).map(ConfigMap.class::cast)
          .findFirst().orElseThrow();
      Map<String, String> annotations = controller.getMetadata().getAnnotations();
      delivery.deliver(id, route.get(), new DesiredFiles(casc.getData(), secretFiles),
          inputs.rendered().digest(), Duration.ofSeconds(inputs.resolved().commandDeadlineSeconds()),
          Optional.ofNullable(annotations == null ? null : annotations.get(ControllerAnnotations.REAPPLY)),
          Optional.ofNullable(previous.lastApplyResult).map(r -> r.trigger));
    }
    return new Delivered(MiteObservations.of(route, delivery.lastResult(id), previous.miteStatus)
        .withLastCommand(channel.queue().lastFinished(id)), recheck, Optional.empty());
  }

  void forget(Controller controller) {
    delivery.forget(identity(controller));
  }

  private static ControllerIdentity identity(Controller controller) {
    return new ControllerIdentity(controller.getMetadata().getNamespace(), controller.getMetadata().getName(),
        controller.getMetadata().getUid());
  }

  /** When to look again for the token, or why its Secret could not be written (it exists and is not Varroa's). */
  private record TokenStep(Optional<Duration> recheck, Optional<String> refused) {
    static TokenStep recheck(Optional<Duration> at) {
      return new TokenStep(at, Optional.empty());
    }
  }

  /**
   * Mints a bootstrap token when the mite needs one and returns when to look again: at the expiry of
   * an unused token, so an unregistered mite is never left with a dead one.
   */
  private TokenStep ensureBootstrapToken(KubernetesClient client, OwnedObjectLookup caches,
      Controller controller, ControllerIdentity id, RenderInput input, Pod pod) {
    // the informer holds the token Secret's annotations, which is all the decision reads
    Secret existing = caches.owned(Secret.class, input.names().miteTokenSecret(), id.namespace()).orElse(null);
    try {
      boolean streamOpen = controller.getStatus() != null && controller.getStatus().miteStatus != null
          && Boolean.TRUE.equals(controller.getStatus().miteStatus.connected);
      Optional<String> reason = MiteTokenSecret.reasonToMint(existing,
          MiteTokenSecret.record(channel.bootstrapTokens(), existing), false, pod, streamOpen, clock.instant());
      if (reason.isPresent()) {
        BootstrapTokenIssuer.Minted minted = channel.bootstrapTokens().mint(id, clock.instant());
        Optional<String> refused = new OwnedObjectApplier(client, caches, ObjectOwnership.CONTROLLER)
            .apply(MiteTokenSecret.render(id, input.names().miteTokenSecret(), minted,
                controller.getMetadata().getName()), controller).refusal();
        if (refused.isPresent()) {
          return new TokenStep(Optional.empty(), refused);
        }
        LOG.info("event=bootstrap_token_minted controller={} reason={} expires_at={}", id.routeKey(), reason.get(),
            minted.expiresAt());
        return TokenStep.recheck(Optional.of(Duration.between(clock.instant(), minted.expiresAt()).plusSeconds(1)));
      }
    } catch (IOException | JetStreamApiException e) {
      LOG.warn("event=bootstrap_token_unavailable controller={} error={}", id.routeKey(), e.getMessage());
      return TokenStep.recheck(Optional.of(RETRY_AFTER_BUS_ERROR));
    }
    return TokenStep.recheck(MiteTokenSecret.expiresAt(existing).filter(at -> at.isAfter(clock.instant()))
        .map(at -> Duration.between(clock.instant(), at).plusSeconds(1)));
  }
}
