package dev.varroa.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AppliedHashTest {
  @Test
  void mapsInAnotherOrderHashEqual() {
    ConfigMap first = configMap(ordered("a", "1", "b", "2"), ordered("x.yaml", "x", "y.yaml", "y"));
    ConfigMap second = configMap(ordered("b", "2", "a", "1"), ordered("y.yaml", "y", "x.yaml", "x"));

    assertThat(AppliedHash.of(first)).isEqualTo(AppliedHash.of(second));
  }

  @Test
  void anotherValueHashesOtherwise() {
    ConfigMap first = configMap(ordered("a", "1", "b", "2"), ordered("x.yaml", "x"));
    ConfigMap second = configMap(ordered("a", "1", "b", "3"), ordered("x.yaml", "x"));

    assertThat(AppliedHash.of(first)).isNotEqualTo(AppliedHash.of(second)).hasSize(32);
  }

  private static ConfigMap configMap(Map<String, String> labels, Map<String, String> data) {
    return new ConfigMapBuilder().withNewMetadata().withName("sandbox-casc").withNamespace("ci").withLabels(labels)
        .endMetadata().withData(data).build();
  }

  private static Map<String, String> ordered(String... keysAndValues) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }
}
