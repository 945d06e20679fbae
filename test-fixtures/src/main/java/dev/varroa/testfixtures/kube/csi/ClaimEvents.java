package dev.varroa.testfixtures.kube.csi;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Records core/v1 Events on objects, as the CSI sidecars and the PV controller do, once per object, reason and message. */
final class ClaimEvents {
  private static final Logger LOG = LoggerFactory.getLogger(ClaimEvents.class);
  private final KubernetesClient client;
  private final Set<String> recorded = ConcurrentHashMap.newKeySet();

  ClaimEvents(KubernetesClient client) {
    this.client = client;
  }

  void warning(HasMetadata object, String component, String reason, String message) {
    String once = object.getMetadata().getUid() + "|" + reason + "|" + message;
    if (!recorded.add(once)) {
      return;
    }
    String now = DateTimeFormatter.ISO_INSTANT.format(Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    String namespace = object.getMetadata().getNamespace() == null ? "default" : object.getMetadata().getNamespace();
    try {
      client.v1().events().inNamespace(namespace).resource(new EventBuilder()
          .withNewMetadata()
          .withNamespace(namespace)
          .withName(object.getMetadata().getName() + "." + Long.toHexString(System.nanoTime()))
          .endMetadata()
          .withInvolvedObject(new ObjectReferenceBuilder()
              .withApiVersion(object.getApiVersion()).withKind(object.getKind())
              .withNamespace(object.getMetadata().getNamespace()).withName(object.getMetadata().getName())
              .withUid(object.getMetadata().getUid()).withResourceVersion(object.getMetadata().getResourceVersion())
              .build())
          .withType("Warning")
          .withReason(reason)
          .withMessage(message)
          .withNewSource().withComponent(component).endSource()
          .withReportingComponent(component)
          .withFirstTimestamp(now)
          .withLastTimestamp(now)
          .withCount(1)
          .build()).create();
    } catch (RuntimeException e) {
      recorded.remove(once);
      throw e;
    }
    LOG.info("event=object_event kind={} object={}/{} reason={} message=\"{}\"", object.getKind(), namespace,
        object.getMetadata().getName(), reason, message);
  }
}
