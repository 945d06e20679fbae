package dev.varroa.operator.render.resolve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Iterator;
import java.util.Map;

/**
 * Merges podTemplate.spec into the rendered pod spec, and one level's podTemplate.spec over another's.
 * Semantics: objects merge key by key; two lists whose items all have a {@code name} merge by name
 * (a patch item merges into the item of the same name, a new name is appended), any other list is
 * replaced; a scalar replaces; an explicit null removes the field.
 */
public final class PodSpecMerge {
  public static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final String NAME = "name";

  private PodSpecMerge() {}

  /** The rendered pod spec with the customisation merged in; neither argument is changed. */
  public static PodSpec apply(PodSpec rendered, ObjectNode customisation) {
    ObjectNode base = SERIALIZATION.convertValue(rendered, ObjectNode.class);
    return SERIALIZATION.convertValue(merge(base, customisation), PodSpec.class);
  }

  /** A new object: {@code patch} merged over {@code base}. */
  public static ObjectNode merge(ObjectNode base, ObjectNode patch) {
    ObjectNode merged = base.deepCopy();
    mergeInto(merged, patch);
    return merged;
  }

  private static void mergeInto(ObjectNode target, ObjectNode patch) {
    for (Iterator<Map.Entry<String, JsonNode>> fields = patch.fields(); fields.hasNext(); ) {
      Map.Entry<String, JsonNode> field = fields.next();
      JsonNode current = target.get(field.getKey());
      JsonNode value = field.getValue();
      if (value.isNull()) {
        target.remove(field.getKey());
      } else if (current instanceof ObjectNode object && value instanceof ObjectNode patchObject) {
        mergeInto(object, patchObject);
      } else if (current instanceof ArrayNode list && value instanceof ArrayNode patchList
          && allNamed(list) && allNamed(patchList)) {
        mergeByName(list, patchList);
      } else {
        target.set(field.getKey(), value.deepCopy());
      }
    }
  }

  private static void mergeByName(ArrayNode target, ArrayNode patch) {
    for (JsonNode item : patch) {
      ObjectNode same = null;
      for (JsonNode existing : target) {
        if (existing.get(NAME).asText().equals(item.get(NAME).asText())) {
          same = (ObjectNode) existing;
        }
      }
      if (same != null) {
        mergeInto(same, (ObjectNode) item);
      } else {
        target.add(item.deepCopy());
      }
    }
  }

  private static boolean allNamed(ArrayNode list) {
    for (JsonNode item : list) {
      if (!item.isObject() || !item.path(NAME).isTextual()) {
        return false;
      }
    }
    return true;
  }
}
