package dev.varroa.operator.hibernation;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Which Controllers the waker answers for: those parked now (phase Hibernated, or status.hibernation.since set), and
 * a woken one whose Service the operator still routes to the waker until its pod is ready. A running or unknown
 * Controller gets nothing from the waker, whatever Host a request names.
 */
public final class ParkedControllers implements Predicate<Controller> {
  private final Supplier<List<EndpointSlice>> wakerRoutes;

  /** @param wakerRoutes the EndpointSlices the operator gave parked Services (label managed-by waker.varroa.dev) */
  public ParkedControllers(Supplier<List<EndpointSlice>> wakerRoutes) {
    this.wakerRoutes = wakerRoutes;
  }

  /** Watches the waker routes of every namespace; the caller closes the informer. */
  public static SharedIndexInformer<EndpointSlice> informRoutes(KubernetesClient client) {
    return client.discovery().v1().endpointSlices().inAnyNamespace()
        .withLabel(WakerRoute.MANAGED_BY_LABEL, WakerRoute.MANAGED_BY).inform();
  }

  @Override
  public boolean test(Controller controller) {
    return parked(controller) || routed(controller, wakerRoutes.get());
  }

  static boolean parked(Controller controller) {
    ControllerStatus status = controller.getStatus();
    return status != null && (status.phase == ControllerStatus.Phase.Hibernated
        || (status.hibernation != null && status.hibernation.since != null));
  }

  /** The operator routed this Controller's Service to the waker: a slice of its Service, owned by it. */
  static boolean routed(Controller controller, List<EndpointSlice> slices) {
    String namespace = controller.getMetadata().getNamespace();
    String uid = controller.getMetadata().getUid();
    String service = WakeRequests.statefulSet(controller);
    return slices.stream().anyMatch(slice -> Objects.equals(namespace, slice.getMetadata().getNamespace())
        && service.equals(label(slice.getMetadata().getLabels(), WakerRoute.SERVICE_NAME_LABEL))
        && slice.getMetadata().getOwnerReferences() != null
        && slice.getMetadata().getOwnerReferences().stream().anyMatch(o -> Objects.equals(uid, o.getUid())));
  }

  private static String label(Map<String, String> labels, String key) {
    return labels == null ? null : labels.get(key);
  }
}
