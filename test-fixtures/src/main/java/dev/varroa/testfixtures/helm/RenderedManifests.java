package dev.varroa.testfixtures.helm;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What {@code helm template} printed: the YAML as is, and each document parsed by fabric8 (a known
 * kind as its model class, e.g. ClusterRole; any other as a GenericKubernetesResource).
 */
public record RenderedManifests(String yaml, List<HasMetadata> objects) {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final Pattern DOCUMENT_SEPARATOR = Pattern.compile("(?m)^---\\s*$");

  public RenderedManifests {
    objects = List.copyOf(objects);
  }

  static RenderedManifests parse(String yaml) {
    List<HasMetadata> objects = new ArrayList<>();
    for (String document : DOCUMENT_SEPARATOR.split(yaml)) {
      if (document.lines().allMatch(line -> line.isBlank() || line.stripLeading().startsWith("#"))) {
        continue;
      }
      objects.add(SERIALIZATION.unmarshal(document, HasMetadata.class));
    }
    return new RenderedManifests(yaml, objects);
  }

  /** The one object of this kind and name, if rendered. */
  public <T extends HasMetadata> Optional<T> find(Class<T> kind, String name) {
    return objects.stream().filter(kind::isInstance).map(kind::cast)
        .filter(o -> name.equals(o.getMetadata().getName())).findFirst();
  }

  public <T extends HasMetadata> T get(Class<T> kind, String name) {
    return find(kind, name).orElseThrow(() -> new IllegalStateException(
        "the chart rendered no " + kind.getSimpleName() + " " + name + "; it rendered " + kindsAndNames()));
  }

  public <T extends HasMetadata> List<T> all(Class<T> kind) {
    return objects.stream().filter(kind::isInstance).map(kind::cast).toList();
  }

  /** "Kind/name" of every object, in render order. */
  public List<String> kindsAndNames() {
    return objects.stream().map(o -> o.getKind() + "/" + o.getMetadata().getName()).toList();
  }
}
