package dev.varroa.bundle.render;

import dev.varroa.bundle.render.MergedNode.ListNode;
import dev.varroa.bundle.render.MergedNode.MapNode;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * Visits every node of the merged JCasC below the root, in document order, with its canonical path:
 * keys joined by dots, list elements as {@code [identity]} or {@code [index]}; for an element
 * identified as {@code key/value} the path steps over its single key
 * ({@code jenkins.clouds[kubernetes/k8s].namespace}).
 */
final class MergedTreeWalk {
  private MergedTreeWalk() {}

  static void walk(MapNode root, BiConsumer<String, MergedNode> visitor) {
    children(root, "", visitor);
  }

  private static void visit(MergedNode node, String path, BiConsumer<String, MergedNode> visitor) {
    visitor.accept(path, node);
    children(node, path, visitor);
  }

  private static void children(MergedNode node, String path, BiConsumer<String, MergedNode> visitor) {
    if (node instanceof MapNode map) {
      map.entries().forEach(entry -> visit(entry.value(), JcascPath.key(path, entry.key().text()), visitor));
    } else if (node instanceof ListNode list) {
      for (int i = 0; i < list.items().size(); i++) {
        MergedNode element = list.items().get(i);
        Optional<ElementIdentity> identity = ElementIdentity.of(element);
        String elementPath = JcascPath.element(path, identity.map(ElementIdentity::display).orElse(String.valueOf(i)));
        visitor.accept(elementPath, element);
        MergedNode content = identity.filter(ElementIdentity::wrapped)
            .map(id -> ((MapNode) element).get(id.wrapperKeyId())).orElse(element);
        children(content, elementPath, visitor);
      }
    }
  }
}
