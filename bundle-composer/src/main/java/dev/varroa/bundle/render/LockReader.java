package dev.varroa.bundle.render;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleProblem;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Reads a {@code bundle.lock.json} that {@link LockWriter} wrote, e.g. the render last applied. */
final class LockReader {
  static final String FILE = "bundle.lock.json";
  private static final ObjectMapper JSON = new ObjectMapper();

  private LockReader() {}

  static BundleLock read(byte[] json) throws BundleException {
    try {
      JsonNode root = JSON.readTree(json);
      if (root == null || !root.isObject()) {
        throw invalid("", "the lock is not a JSON object");
      }
      return new BundleLock(text(root, "digest"), text(root, "jenkinsVersion"),
          list(root, "inputs", LockReader::input), list(root, "plugins", LockReader::plugin),
          list(root, "variables", JsonNode::asText), list(root, "secrets", JsonNode::asText),
          list(root, "overrides", o -> new BundleLock.Override(text(o, "path"), text(o, "winner"), text(o, "overridden"))));
    } catch (JacksonException e) {
      throw invalid("", "not valid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw invalid("", "cannot read the lock: " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw invalid("", e.getMessage());
    }
  }

  private static BundleLock.Input input(JsonNode node) {
    Map<String, String> ref = new LinkedHashMap<>();
    node.path("ref").properties().forEach(e -> ref.put(e.getKey(), e.getValue().asText()));
    return new BundleLock.Input(node.path("index").asInt(), text(node, "kind"), text(node, "url"), text(node, "name"),
        ref, text(node, "path"), text(node, "revision"));
  }

  private static PluginLock plugin(JsonNode node) {
    return new PluginLock(text(node, "id"), text(node, "version"), PluginSource.ofLabel(text(node, "source")));
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }

  private static <T> List<T> list(JsonNode root, String field, Function<JsonNode, T> item) {
    JsonNode array = root.path(field);
    if (!array.isArray()) {
      throw new IllegalArgumentException("the field " + field + " is missing or not an array");
    }
    List<T> items = new ArrayList<>();
    array.forEach(node -> items.add(item.apply(node)));
    return items;
  }

  private static BundleException invalid(String path, String message) {
    return new BundleException(new BundleProblem(BundleProblem.Kind.INVALID, null, FILE, path.isEmpty() ? null : path,
        message, "use the bundle.lock.json that `varroactl bundle render` wrote with this jcasc.yaml and plugins.txt"));
  }
}
