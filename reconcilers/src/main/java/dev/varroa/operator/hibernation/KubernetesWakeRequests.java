package dev.varroa.operator.hibernation;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.operator.render.ControllerLabels;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.SecretList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;

/** Keeps visits and deliveries as Secrets in the controller's namespace, owned by the Controller. */
public final class KubernetesWakeRequests implements WakeRequestStore {
  private static final int CONFLICT = 409;
  private final KubernetesClient client;
  private final SecureRandom random = new SecureRandom();

  public KubernetesWakeRequests(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public void visit(Controller controller, Instant at) {
    try {
      client.resource(WakeRequests.visit(controller, at)).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != CONFLICT) {
        throw e;
      }
      // a visit is pending already: the controller is waking
    }
  }

  @Override
  public Kept keep(Controller controller, KeptDelivery delivery) {
    String selector = ControllerLabels.CONTROLLER + "=" + ControllerLabels.value(controller.getMetadata().getName())
        + "," + WakeRequests.KIND_LABEL + "=" + WakeRequests.DELIVERY;
    // a page one longer than the limit says whether the limit is reached, without reading every body
    SecretList kept = client.secrets().inNamespace(controller.getMetadata().getNamespace()).list(
        new ListOptionsBuilder().withLabelSelector(selector).withLimit((long) MAX_KEPT_DELIVERIES).build());
    boolean more = kept.getMetadata() != null && kept.getMetadata().getContinue() != null
        && !kept.getMetadata().getContinue().isEmpty();
    if (kept.getItems().size() >= MAX_KEPT_DELIVERIES || more) {
      return new Kept.Full(MAX_KEPT_DELIVERIES);
    }
    byte[] unique = new byte[3];
    random.nextBytes(unique);
    var secret = WakeRequests.delivery(controller, delivery, HexFormat.of().formatHex(unique));
    client.resource(secret).create();
    return new Kept.Stored(secret.getMetadata().getName());
  }
}
