package dev.varroa.operator.render;

import dev.varroa.operator.render.resolve.ResolvedController;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;

/**
 * The Jenkins ServiceAccount in the controller's namespace. It is bound to rights in the agents
 * namespace only: nothing here lets Jenkins touch its own workload.
 */
public final class ServiceAccountRenderer {
  private ServiceAccountRenderer() {}

  public static ServiceAccount render(RenderInput input) {
    ResolvedController controller = input.controller();
    return new ServiceAccountBuilder()
        .withMetadata(OwnedMetadata.of(input.names().serviceAccount(), controller.namespace(), controller))
        // the Kubernetes plugin authenticates with the mounted token to start agent pods
        .withAutomountServiceAccountToken(true)
        .build();
  }
}
