package dev.varroa.operator.render;

import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.operator.render.resolve.ResolvedController;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;

/** Metadata of an object the operator owns for a Controller: name, namespace, the Controller's labels. */
final class OwnedMetadata {
  private OwnedMetadata() {}

  static ObjectMeta of(String name, String namespace, ResolvedController controller) {
    return new ObjectMetaBuilder().withName(name).withNamespace(namespace)
        .withLabels(ControllerLabels.of(controller.name())).build();
  }
}
