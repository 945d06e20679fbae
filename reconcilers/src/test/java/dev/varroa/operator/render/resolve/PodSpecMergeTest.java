package dev.varroa.operator.render.resolve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class PodSpecMergeTest {
  private static ObjectNode json(String json) {
    return PodSpecMerge.SERIALIZATION.unmarshal(json, ObjectNode.class);
  }

  @Test
  void mergesObjectsKeyByKey() {
    assertThat(PodSpecMerge.merge(json("{\"nodeSelector\":{\"a\":\"1\",\"b\":\"1\"}}"),
        json("{\"nodeSelector\":{\"b\":\"2\"}}"))).isEqualTo(json("{\"nodeSelector\":{\"a\":\"1\",\"b\":\"2\"}}"));
  }

  @Test
  void mergesListsOfNamedItemsByName() {
    ObjectNode merged = PodSpecMerge.merge(
        json("{\"containers\":[{\"name\":\"jenkins\",\"image\":\"j\"},{\"name\":\"x\",\"image\":\"x\"}]}"),
        json("{\"containers\":[{\"name\":\"jenkins\",\"image\":\"k\"},{\"name\":\"y\",\"image\":\"y\"}]}"));

    assertThat(merged).isEqualTo(json("{\"containers\":[{\"name\":\"jenkins\",\"image\":\"k\"},"
        + "{\"name\":\"x\",\"image\":\"x\"},{\"name\":\"y\",\"image\":\"y\"}]}"));
  }

  @Test
  void replacesOtherListsAndRemovesNulls() {
    assertThat(PodSpecMerge.merge(json("{\"tolerations\":[{\"key\":\"a\"}],\"hostname\":\"h\"}"),
        json("{\"tolerations\":[{\"key\":\"b\"}],\"hostname\":null}"))).isEqualTo(json("{\"tolerations\":[{\"key\":\"b\"}]}"));
  }

  @Test
  void leavesItsArgumentsUnchanged() {
    ObjectNode base = json("{\"nodeSelector\":{\"a\":\"1\"}}");
    PodSpecMerge.merge(base, json("{\"nodeSelector\":{\"a\":\"2\"}}"));

    assertThat(base).isEqualTo(json("{\"nodeSelector\":{\"a\":\"1\"}}"));
  }
}
