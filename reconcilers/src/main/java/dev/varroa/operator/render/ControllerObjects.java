package dev.varroa.operator.render;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;

/**
 * Every object the operator owns for one Controller, in apply order: the agents namespace and its
 * RBAC first, then the Jenkins ServiceAccount, the ConfigMaps the pod mounts, the Service, the
 * StatefulSet and the optional Ingress. This is what {@code varroactl render controller} prints.
 */
public final class ControllerObjects {
  private ControllerObjects() {}

  public static List<HasMetadata> render(RenderInput input) {
    List<HasMetadata> objects = new ArrayList<>(AgentsNamespaceRenderer.render(input));
    objects.add(ServiceAccountRenderer.render(input));
    objects.add(JcascConfigMapRenderer.render(input));
    objects.add(ChannelConfigMapRenderer.render(input));
    objects.add(PluginsConfigMapRenderer.render(input));
    UpdateCenterCaConfigMapRenderer.render(input).ifPresent(objects::add);
    objects.add(ServiceRenderer.render(input));
    objects.add(StatefulSetRenderer.render(input));
    IngressRenderer.render(input).ifPresent(objects::add);
    return List.copyOf(objects);
  }
}
