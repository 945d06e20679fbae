package dev.varroa.bundle.render;

import dev.varroa.bundle.render.MergedNode.MapNode;
import dev.varroa.bundle.render.MergedNode.ScalarNode;
import dev.varroa.bundle.render.YamlValue.Scalar;
import java.util.Optional;

/**
 * A list element's identity (BUNDLES.md §3): a mapping's {@code id}, else its {@code name}, else a
 * single-key mapping whose value has an {@code id} or {@code name}, written {@code key/value}
 * ({@code {kubernetes: {name: k8s}}} is {@code kubernetes/k8s}). Two elements are the same element
 * when their identities are written the same.
 *
 * @param display the identity as paths show it, inside {@code [ ]}
 * @param wrapperKeyId for the single-key form, the key's equality key (paths step over it); else null
 */
record ElementIdentity(String display, String wrapperKeyId) {
  private static final String ID = Scalar.plain("id", 0).equalityKey();
  private static final String NAME = Scalar.plain("name", 0).equalityKey();

  static Optional<ElementIdentity> of(YamlValue element) {
    if (!(element instanceof YamlValue.Mapping map)) {
      return Optional.empty();
    }
    Optional<String> own = ownIdentity(map);
    if (own.isPresent()) {
      return own.map(id -> new ElementIdentity(id, null));
    }
    if (map.entries().size() == 1 && map.entries().get(0).value() instanceof YamlValue.Mapping inner) {
      Scalar key = map.entries().get(0).key();
      return ownIdentity(inner).map(id -> new ElementIdentity(key.text() + "/" + id, key.equalityKey()));
    }
    return Optional.empty();
  }

  static Optional<ElementIdentity> of(MergedNode element) {
    if (!(element instanceof MapNode map)) {
      return Optional.empty();
    }
    Optional<String> own = ownIdentity(map);
    if (own.isPresent()) {
      return own.map(id -> new ElementIdentity(id, null));
    }
    if (map.entries().size() == 1) {
      MapNode.Entry only = map.entries().iterator().next();
      if (only.value() instanceof MapNode inner) {
        return ownIdentity(inner).map(id -> new ElementIdentity(only.key().text() + "/" + id, only.key().equalityKey()));
      }
    }
    return Optional.empty();
  }

  boolean wrapped() {
    return wrapperKeyId != null;
  }

  private static Optional<String> ownIdentity(YamlValue.Mapping map) {
    return scalarText(map.get("id")).or(() -> scalarText(map.get("name")));
  }

  private static Optional<String> ownIdentity(MapNode map) {
    return nodeText(map.get(ID)).or(() -> nodeText(map.get(NAME)));
  }

  private static Optional<String> scalarText(YamlValue value) {
    return value instanceof Scalar s && s.tag() == YamlValue.MergeTag.NONE && !s.isNull()
        ? Optional.of(s.text()) : Optional.empty();
  }

  private static Optional<String> nodeText(MergedNode node) {
    return node instanceof ScalarNode s && !s.value().isNull() ? Optional.of(s.value().text()) : Optional.empty();
  }
}
