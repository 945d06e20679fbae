package dev.varroa.operator.render;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.operator.render.resolve.PodSpecMerge;
import dev.varroa.operator.render.resolve.ResolvedController;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The change-class hash on the pod template ({@value #ANNOTATION}): SHA-256 over the restart-class
 * inputs only. A change here rolls the pod; JCasC is deliberately not an input, so a JCasC-only
 * change leaves the pod template byte-identical and goes to the mite as desired state. plugins.txt
 * lives in a ConfigMap the template only names, so without this hash a plugin change would not roll.
 */
public final class RestartHash {
  public static final String ANNOTATION = "varroa.dev/restart-hash";

  private RestartHash() {}

  public static String of(RenderInput input) {
    ResolvedController controller = input.controller();
    Map<String, Object> inputs = new LinkedHashMap<>();
    inputs.put("jenkinsImage", input.jenkinsImage());
    inputs.put("jenkinsVersion", input.profile().getSpec().jenkinsVersion);
    inputs.put("plugins", PluginsConfigMapRenderer.pluginsText(input));
    // the external form hashes its spec as it always did; a managed one its URLs (a new CA needs no restart:
    // Jenkins reads update-center-rootCAs/ on every check, and the mounted ConfigMap updates in place)
    inputs.put("updateCenter", input.managedUpdateCenter().<Object>map(uc -> Map.of("url", uc.url(),
            "pluginDownloadUrl", uc.pluginDownloadUrl().orElse(""), "pluginVersionsUrl", uc.pluginVersionsUrl().orElse("")))
        .orElse(input.updateCenter().map(u -> u.getSpec()).orElse(null)));
    // A mite registers with the CA and endpoint it started with: a change there needs a new pod.
    inputs.put("gatewayEndpoint", input.channel().gatewayEndpoint());
    inputs.put("gatewayCa", ControllerLabels.sha256(input.channel().caCertificatePem()));
    inputs.putAll(controllerInputs(controller));
    return ControllerLabels.sha256(canonical(PodSpecMerge.SERIALIZATION.convertValue(inputs, JsonNode.class)));
  }

  /**
   * The restart-class inputs that come from the resolved Controller settings alone (the rest come from the profile,
   * the bundle's plugin lock, the update center and the channel). The dashboard's change classification compares
   * these, so what it marks as rolling the pod is what rolls it here.
   */
  public static Map<String, Object> controllerInputs(ResolvedController controller) {
    Map<String, Object> inputs = new LinkedHashMap<>();
    ResolvedController.Jenkins jenkins = controller.jenkins();
    inputs.put("jenkinsImagePullPolicy", jenkins.imagePullPolicy().orElse(null));
    inputs.put("jenkinsResources", jenkins.resources().orElse(null));
    inputs.put("javaOpts", jenkins.javaOpts().orElse(null));
    inputs.put("env", jenkins.env());
    ResolvedController.Mite mite = controller.mite();
    inputs.put("miteImage", mite.image());
    inputs.put("miteImagePullPolicy", mite.imagePullPolicy().orElse(null));
    inputs.put("miteResources", mite.resources().orElse(null));
    ResolvedController.PodCustomisation pod = controller.pod();
    inputs.put("podLabels", pod.labels());
    inputs.put("podAnnotations", pod.annotations());
    inputs.put("podSpec", pod.spec().orElse(null));
    return inputs;
  }

  /** JSON with object keys sorted at every level, so equal inputs hash equal whatever their map order. */
  static String canonical(JsonNode node) {
    if (node instanceof ObjectNode object) {
      TreeMap<String, JsonNode> sorted = new TreeMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> fields = object.fields(); fields.hasNext(); ) {
        Map.Entry<String, JsonNode> field = fields.next();
        sorted.put(field.getKey(), field.getValue());
      }
      StringBuilder json = new StringBuilder("{");
      sorted.forEach((key, value) -> json.append(json.length() > 1 ? "," : "")
          .append(JsonNodeFactory.instance.textNode(key)).append(':').append(canonical(value)));
      return json.append('}').toString();
    }
    if (node.isArray()) {
      StringBuilder json = new StringBuilder("[");
      node.forEach(item -> json.append(json.length() > 1 ? "," : "").append(canonical(item)));
      return json.append(']').toString();
    }
    return node.toString();
  }
}
