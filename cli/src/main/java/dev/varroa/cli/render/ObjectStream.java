package dev.varroa.cli.render;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesListBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;

/** Rendered objects as kubectl takes them: one YAML stream, or a JSON v1 List. */
final class ObjectStream {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private ObjectStream() {}

  /** Each object as its own document, each starting with {@code ---}, in the given order. */
  static String yaml(List<HasMetadata> objects) {
    StringBuilder stream = new StringBuilder();
    for (HasMetadata object : objects) {
      stream.append(SERIALIZATION.asYaml(object));
    }
    return stream.toString();
  }

  static String json(List<HasMetadata> objects) {
    Object list = new KubernetesListBuilder().withItems(objects).build();
    return SERIALIZATION.convertValue(list, JsonNode.class).toPrettyString() + "\n";
  }
}
