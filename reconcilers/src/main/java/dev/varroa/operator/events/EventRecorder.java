package dev.varroa.operator.events;

import dev.varroa.api.v1alpha1.Condition;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Writes Kubernetes events about Varroa objects, as `kubectl describe` shows them. */
public final class EventRecorder {
  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
  private static final int MAX_MESSAGE = 1024;

  private final KubernetesClient client;
  private final String component;
  private final Clock clock;

  /** @param clock stamps each event's first and last timestamp: the reconciler's clock, so tests can pin it */
  public EventRecorder(KubernetesClient client, String component, Clock clock) {
    this.client = client;
    this.component = component;
    this.clock = clock;
  }

  public void normal(HasMetadata object, String reason, String message) {
    record(object, "Normal", reason, message);
  }

  /** A warning, unless the object's condition already says the same: a failure is announced once. */
  public void warningOnce(HasMetadata object, String reason, String message, Optional<Condition> previous) {
    boolean alreadySaid = previous.map(c -> reason.equals(c.reason) && message.equals(c.message)).orElse(false);
    if (!alreadySaid) {
      record(object, "Warning", reason, message);
    }
  }

  private void record(HasMetadata object, String type, String reason, String message) {
    String now = clock.instant().toString();
    try {
      client.v1().events().inNamespace(object.getMetadata().getNamespace()).resource(new EventBuilder()
          .withNewMetadata()
          .withName(object.getMetadata().getName() + "." + UUID.randomUUID().toString().substring(0, 8))
          .withNamespace(object.getMetadata().getNamespace())
          .endMetadata()
          .withInvolvedObject(new ObjectReferenceBuilder().withApiVersion(object.getApiVersion())
              .withKind(object.getKind()).withName(object.getMetadata().getName())
              .withNamespace(object.getMetadata().getNamespace()).withUid(object.getMetadata().getUid()).build())
          .withType(type).withReason(reason)
          .withMessage(message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) : message)
          .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
          .withNewSource().withComponent(component).endSource()
          .build()).create();
    } catch (KubernetesClientException e) {
      // An event is a courtesy: the status carries the same facts, so a refused event is only logged.
      LOG.warn("event=event_not_recorded object={}/{} reason={} error={}", object.getKind(),
          object.getMetadata().getName(), reason, e.getMessage());
    }
  }
}
