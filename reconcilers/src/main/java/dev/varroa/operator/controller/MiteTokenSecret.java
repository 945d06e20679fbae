package dev.varroa.operator.controller;

import dev.varroa.operator.channel.BootstrapTokenIssuer;
import dev.varroa.operator.render.PodVolumes;
import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.BootstrapTokenRecord;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.nats.client.JetStreamApiException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * Decides when a mite needs a new bootstrap token and writes it into the Secret the mite mounts.
 * A mite that holds a certificate needs none; a new pod (its in-memory identity gone) or an unused
 * token that expired gets a new one.
 */
final class MiteTokenSecret {
  static final String DIGEST_ANNOTATION = "varroa.dev/bootstrap-token-digest";
  static final String EXPIRES_ANNOTATION = "varroa.dev/bootstrap-token-expires-at";

  private MiteTokenSecret() {}

  /** Why a token is minted, for the log; empty when the current one will do. */
  static Optional<String> reasonToMint(Secret existing, Optional<BootstrapTokenRecord> record, boolean connected,
      Pod pod, Instant now) {
    return reasonToMint(existing, record, connected, pod, false, now);
  }

  /**
   * @param streamOpen whether the Controller's status says its mite is connected now: it settles a pod created in the
   *     same second as the registration, which creationTimestamp's whole seconds cannot order
   */
  static Optional<String> reasonToMint(Secret existing, Optional<BootstrapTokenRecord> record, boolean connected,
      Pod pod, boolean streamOpen, Instant now) {
    if (connected) {
      return Optional.empty();
    }
    if (existing == null || annotation(existing, DIGEST_ANNOTATION) == null) {
      return Optional.of("no_token_yet");
    }
    if (record.isEmpty()) {
      return Optional.of("token_record_gone");
    }
    BootstrapTokenRecord r = record.get();
    if (!r.getUsed()) {
      return Instant.ofEpochMilli(r.getExpiresAtEpochMillis()).isBefore(now)
          ? Optional.of("token_expired_unused") : Optional.empty();
    }
    // Used: a pod created after the registration lost its in-memory identity and needs a new token.
    if (pod == null || pod.getMetadata().getCreationTimestamp() == null) {
      return Optional.empty();
    }
    Instant created = Instant.parse(pod.getMetadata().getCreationTimestamp());
    Instant usedAt = Instant.ofEpochMilli(r.getUsedAtEpochMillis());
    // creationTimestamp has whole seconds: a pod made in the registration's second is the new one unless its mite is
    // connected (else a pod recreated within that second would wait forever on a used token)
    boolean newPod = created.isAfter(usedAt)
        || created.equals(usedAt.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)) && !streamOpen;
    return newPod ? Optional.of("new_pod") : Optional.empty();
  }

  static Secret render(ControllerIdentity controller, String secretName, BootstrapTokenIssuer.Minted minted,
      String controllerName) {
    return new SecretBuilder()
        .withNewMetadata().withName(secretName).withNamespace(controller.namespace())
        .withLabels(ControllerLabels.of(controllerName))
        .withAnnotations(Map.of(DIGEST_ANNOTATION, minted.digest(), EXPIRES_ANNOTATION, minted.expiresAt().toString()))
        .endMetadata()
        .withType("Opaque")
        .withData(Map.of(PodVolumes.BOOTSTRAP_TOKEN_FILE,
            Base64.getEncoder().encodeToString(minted.token().getBytes(StandardCharsets.UTF_8))))
        .build();
  }

  static Optional<BootstrapTokenRecord> record(BootstrapTokenIssuer issuer, Secret existing)
      throws IOException, JetStreamApiException {
    String digest = existing == null ? null : annotation(existing, DIGEST_ANNOTATION);
    return digest == null ? Optional.empty() : issuer.record(digest);
  }

  static Optional<Instant> expiresAt(Secret secret) {
    String value = secret == null ? null : annotation(secret, EXPIRES_ANNOTATION);
    return value == null ? Optional.empty() : Optional.of(Instant.parse(value));
  }

  private static String annotation(Secret secret, String key) {
    return secret.getMetadata().getAnnotations() == null ? null : secret.getMetadata().getAnnotations().get(key);
  }
}
