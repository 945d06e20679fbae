package dev.varroa.operator.render;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.Map;
import java.util.Optional;

/**
 * The certificate a managed UpdateCenter's update-center.json signature chains to, in the
 * Controller's namespace (a pod mounts ConfigMaps of its own namespace only). Mounted at
 * {@code $JENKINS_HOME/update-center-rootCAs/}, where Jenkins looks for trusted update-site roots.
 * Public material only.
 */
public final class UpdateCenterCaConfigMapRenderer {
  private UpdateCenterCaConfigMapRenderer() {}

  public static Optional<ConfigMap> render(RenderInput input) {
    return input.managedUpdateCenter().flatMap(UpdateCenterEndpoints::signingCa).map(ca -> new ConfigMapBuilder()
        .withMetadata(OwnedMetadata.of(input.names().updateCenterCaConfigMap(), input.controller().namespace(),
            input.controller()))
        .withData(Map.of(PodVolumes.UPDATE_CENTER_CA_FILE, ca))
        .build());
  }
}
