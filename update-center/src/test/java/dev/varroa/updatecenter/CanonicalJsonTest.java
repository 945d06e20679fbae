package dev.varroa.updatecenter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The canonical form is json-lib's, byte for byte, on the cases where it differs from plain JSON. */
class CanonicalJsonTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void sortsKeysAtEveryLevelAndWritesNoWhitespace() throws Exception {
    assertThat(CanonicalJson.write(JSON.readTree("{\"b\": [ {\"z\":1, \"a\":true} ], \"a\": \"x\", \"B\": null}")))
        .isEqualTo("{\"B\":null,\"a\":\"x\",\"b\":[{\"a\":true,\"z\":1}]}");
  }

  @Test
  void escapesValuesMinimallyAndKeysLikeJsonLibQuote() throws Exception {
    String node = "{\"k</x\\n\": \"</b> \\\"q\\\" \\\\ \\n \\u0001 é\"}";

    assertThat(CanonicalJson.write(JSON.readTree(node)))
        .isEqualTo("{\"k<\\/x\\n\":\"</b> \\\"q\\\" \\\\ \\u000a \\u0001 é\"}");
  }

  @Test
  void refusesFractionsJsonLibWouldFormatDifferently() throws Exception {
    assertThatThrownBy(() -> CanonicalJson.write(JSON.readTree("{\"popularity\": 1.50}")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fractional");
  }
}
