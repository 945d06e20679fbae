package dev.varroa.operator.render;

import dev.varroa.api.v1alpha1.AgentsSpec;
import dev.varroa.api.v1alpha1.PodTemplate;
import dev.varroa.api.v1alpha1.PodTemplateSpec;
import dev.varroa.operator.render.resolve.PodSpecMerge;
import dev.varroa.operator.render.resolve.PodTemplateSelection;
import dev.varroa.operator.render.resolve.ResolvedController;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Varroa's own JCasC fragment: the Kubernetes cloud in the agents namespace, reached by the direct
 * tunnel to the Service's agent port or by WebSocket, with the matching PodTemplates as its pod
 * templates and the plugin's orphan-pod garbage collection on, so agents left behind by a Jenkins
 * restart are cleaned up (seed 003).
 */
public final class KubernetesCloudFragment {
  /** Its own file next to the bundle's jcasc.yaml: CASC_JENKINS_CONFIG is a folder and JCasC merges both. */
  public static final String FILE = "varroa-cloud.yaml";
  /** Distinct from any cloud a bundle declares, since JCasC appends clouds from several files. */
  public static final String CLOUD_NAME = "varroa";
  /** Seconds an agent pod without a Jenkins node may live before garbage collection deletes it. */
  public static final int ORPHAN_POD_TIMEOUT_SECONDS = 300;
  /** On every agent pod of the cloud: the StatefulSet of the Jenkins that started it. */
  public static final String AGENT_OF_LABEL = "varroa.dev/agent-of";

  private KubernetesCloudFragment() {}

  public static String render(RenderInput input) {
    ResolvedController controller = input.controller();
    String namespace = controller.agents().namespace();
    Map<String, Object> cloud = new LinkedHashMap<>();
    cloud.put("name", CLOUD_NAME);
    cloud.put("namespace", namespace);
    // agents always dial the Service, never the Ingress (seed 004)
    cloud.put("jenkinsUrl", JenkinsContainer.serviceUrl(input));
    if (controller.agents().tunnel() == AgentsSpec.Tunnel.direct) {
      cloud.put("jenkinsTunnel", JenkinsContainer.directTunnel(input));
    }
    cloud.put("webSocket", controller.agents().tunnel() == AgentsSpec.Tunnel.websocket);
    Map<String, Object> garbageCollection = new LinkedHashMap<>();
    garbageCollection.put("namespaces", namespace);
    garbageCollection.put("timeout", ORPHAN_POD_TIMEOUT_SECONDS);
    cloud.put("garbageCollection", garbageCollection);
    // the operator's orphan collector finds this Jenkins' agent pods by this label
    // ordered: a Map.of's iteration order differs between JVMs, and a new leader would rewrite the ConfigMap
    Map<String, Object> podLabel = new LinkedHashMap<>();
    podLabel.put("key", AGENT_OF_LABEL);
    podLabel.put("value", controller.names().statefulSet());
    cloud.put("podLabels", List.of(podLabel));
    List<Map<String, Object>> templates = PodTemplateSelection
        .matching(input.podTemplates(), controller.namespace(), controller.labels()).stream()
        .map(KubernetesCloudFragment::template).toList();
    if (!templates.isEmpty()) {
      cloud.put("templates", templates);
    }
    Map<String, Object> root = Map.of("jenkins", Map.of("clouds", List.of(Map.of("kubernetes", cloud))));
    return PodSpecMerge.SERIALIZATION.asYaml(root);
  }

  private static Map<String, Object> template(PodTemplate template) {
    PodTemplateSpec spec = template.getSpec();
    Map<String, Object> rendered = new LinkedHashMap<>();
    rendered.put("name", template.getMetadata().getName());
    rendered.put("label", spec.label);
    putIfSet(rendered, "instanceCap", spec.instanceCap);
    putIfSet(rendered, "idleMinutes", spec.idleMinutes);
    putIfSet(rendered, "nodeUsageMode", spec.nodeUsageMode == null ? null : spec.nodeUsageMode.name());
    putIfSet(rendered, "serviceAccount", spec.serviceAccountName);
    if (spec.pod != null) {
      Map<String, Object> pod = new LinkedHashMap<>();
      pod.put("apiVersion", "v1");
      pod.put("kind", "Pod");
      pod.put("spec", spec.pod);
      rendered.put("yaml", literal(PodSpecMerge.SERIALIZATION.asYaml(pod).replaceFirst("^---\n", "")));
    }
    return rendered;
  }

  /** JCasC would resolve ${...} inside the pod YAML; ^${...} keeps it for the shell or Kubernetes. */
  static String literal(String text) {
    return text.replace("${", "^${");
  }

  private static void putIfSet(Map<String, Object> map, String key, Object value) {
    if (value != null) {
      map.put(key, value);
    }
  }
}
