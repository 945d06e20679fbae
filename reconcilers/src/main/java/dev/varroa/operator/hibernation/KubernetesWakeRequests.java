package dev.varroa.operator.hibernation;

import dev.varroa.api.v1alpha1.Controller;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;

/**
 * Keeps visits and deliveries as Secrets in the controller's namespace, owned by the Controller; a delivery only
 * within {@value WakeRequestStore#MAX_KEPT_DELIVERIES} per Controller and the cluster-wide byte cap.
 */
public final class KubernetesWakeRequests implements WakeRequestStore {
  private static final int CONFLICT = 409;
  private final KubernetesClient client;
  private final KeptDeliveryLedger ledger;
  private final long keptBytesCap;
  private final SecureRandom random = new SecureRandom();

  /**
   * @param ledger what every namespace holds already (cluster-wide)
   * @param keptBytesCap the most bytes kept deliveries may hold in the whole cluster
   */
  public KubernetesWakeRequests(KubernetesClient client, KeptDeliveryLedger ledger, long keptBytesCap) {
    this.client = client;
    this.ledger = ledger;
    this.keptBytesCap = keptBytesCap;
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
    byte[] unique = new byte[3];
    random.nextBytes(unique);
    Secret secret = WakeRequests.delivery(controller, delivery, HexFormat.of().formatHex(unique));
    KeptDeliveryLedger.Admission admission = ledger.admit(secret, controller.getMetadata().getUid(),
        MAX_KEPT_DELIVERIES, keptBytesCap);
    if (admission instanceof KeptDeliveryLedger.Admission.ControllerFull full) {
      return new Kept.Full(full.limit());
    }
    if (admission instanceof KeptDeliveryLedger.Admission.OverCap over) {
      return new Kept.OverCap(over.capBytes());
    }
    String key = ((KeptDeliveryLedger.Admission.Admitted) admission).key();
    try {
      client.resource(secret).create();
    } catch (RuntimeException e) {
      ledger.release(key);
      throw e;
    }
    return new Kept.Stored(secret.getMetadata().getName());
  }
}
