package dev.varroa.operator.render;

import dev.varroa.operator.render.resolve.ResolvedController;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The ConfigMap mounted as CASC_JENKINS_CONFIG: the bundle's rendered JCasC, Varroa's cloud
 * fragment, the JenkinsRoleBindings' authorization when any applies and, unless the bundle and that
 * file set both realm and strategy, Varroa's security fragment; for a cell, its Teams' folders. It holds no secret value: JCasC names secrets as ${NAME}, which resolve from the files
 * the mite writes under /run/secrets. Its name carries no digest, so a JCasC change never touches
 * the pod template.
 */
public final class JcascConfigMapRenderer {
  /** The bundle's JCasC, as the composer rendered it. */
  public static final String JCASC_KEY = "jcasc.yaml";
  /** Which render the ConfigMap holds; status compares it with what the mite last applied. */
  public static final String BUNDLE_DIGEST_ANNOTATION = "varroa.dev/bundle-digest";

  private JcascConfigMapRenderer() {}

  public static ConfigMap render(RenderInput input) {
    ResolvedController controller = input.controller();
    Map<String, String> data = new LinkedHashMap<>();
    data.put(JCASC_KEY, input.bundle().jcascText());
    data.put(KubernetesCloudFragment.FILE, KubernetesCloudFragment.render(input));
    input.authorization().ifPresent(a -> data.put(JenkinsAuthorizationRenderer.FILE, a.yaml()));
    SecurityFragment.render(input.bundle(), input.authorization().map(JenkinsAuthorizationRenderer.Authorization::paths)
        .orElse(java.util.Set.of())).ifPresent(security -> data.put(SecurityFragment.FILE, security));
    input.cell().ifPresent(cell -> data.put(TeamFoldersFragment.FILE, TeamFoldersFragment.render(cell)));
    ConfigMap configMap = new ConfigMapBuilder()
        .withMetadata(OwnedMetadata.of(input.names().cascConfigMap(), controller.namespace(), controller))
        .withData(data)
        .build();
    configMap.getMetadata().setAnnotations(Map.of(BUNDLE_DIGEST_ANNOTATION, input.bundle().digest()));
    return configMap;
  }
}
