package dev.varroa.operator.actions;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PipelineRunParametersTest {

  @Test
  void acceptsNoParametersAndAHundred() {
    Map<String, String> hundred = new HashMap<>();
    for (int i = 0; i < PipelineRunParameters.MAX_COUNT; i++) {
      hundred.put("P" + i, "value");
    }

    assertThat(PipelineRunParameters.problem(Map.of())).isNull();
    assertThat(PipelineRunParameters.problem(hundred)).isNull();
  }

  @Test
  void refusesAHundredAndOneNamingTheField() {
    Map<String, String> many = new HashMap<>();
    for (int i = 0; i <= PipelineRunParameters.MAX_COUNT; i++) {
      many.put("P" + i, "value");
    }

    assertThat(PipelineRunParameters.problem(many)).startsWith("parameters: 101 given, at most 100");
  }

  @Test
  void refusesAnEmptyName() {
    assertThat(PipelineRunParameters.problem(Map.of(" ", "x"))).startsWith("parameters: a parameter has an empty name");
  }

  @Test
  void refusesValuesOverSixtyFourKibibytesTogetherCountingUtf8Bytes() {
    String half = "é".repeat(16 * 1024); // 32 KiB in UTF-8
    assertThat(PipelineRunParameters.problem(Map.of("A", half, "B", half))).isNull();

    assertThat(PipelineRunParameters.problem(Map.of("A", half, "B", half, "C", "x")))
        .startsWith("parameters: the values hold 65537 bytes, at most 65536");
  }

  @Test
  void ordersParametersByName() {
    assertThat(PipelineRunParameters.ordered(Map.of("TARGET", "staging", "DRY_RUN", "true", "A", "")))
        .extracting(p -> p.getName() + "=" + p.getValue()).containsExactly("A=", "DRY_RUN=true", "TARGET=staging");
  }
}
