package dev.varroa.plugin.calls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PipelineCallArgumentsTest {

  @Test
  void defaultsToTheOwnClusterAndAnHourAndWritesParametersAsText() {
    PipelineCallArguments arguments = PipelineCallArguments.of(" ops/payments ", "deploy", null,
        Map.of("VERSION", "1.4", "DRY_RUN", true), null);

    assertThat(arguments.team()).isEqualTo("ops/payments");
    assertThat(arguments.cluster()).isEmpty();
    assertThat(arguments.timeout()).isEqualTo(Duration.ofMinutes(60));
    assertThat(arguments.parameters()).containsExactlyInAnyOrderEntriesOf(Map.of("VERSION", "1.4", "DRY_RUN", "true"));
  }

  @Test
  void namesTheArgumentAndTheFixOfEveryBadInput() {
    assertThatThrownBy(() -> PipelineCallArguments.of("", "deploy", "", Map.of(), 5))
        .hasMessageStartingWith("varroaRunPipeline: team is empty");
    assertThatThrownBy(() -> PipelineCallArguments.of("a/b/c", "deploy", "", Map.of(), 5))
        .hasMessageContaining("team 'a/b/c' is not 'name' or 'namespace/name'");
    assertThatThrownBy(() -> PipelineCallArguments.of("Payments", "deploy", "", Map.of(), 5))
        .hasMessageContaining("team 'Payments'");
    assertThatThrownBy(() -> PipelineCallArguments.of("ops.eu/payments", "deploy", "", Map.of(), 5))
        .hasMessageContaining("team 'ops.eu/payments'");
    assertThat(PipelineCallArguments.of("ops/payments.eu", "deploy", "", Map.of(), 5).team())
        .isEqualTo("ops/payments.eu");
    assertThatThrownBy(() -> PipelineCallArguments.of("payments", " ", "", Map.of(), 5))
        .hasMessageContaining("pipeline is empty");
    assertThatThrownBy(() -> PipelineCallArguments.of("payments", "deploy", "Core_1", Map.of(), 5))
        .hasMessageContaining("cluster 'Core_1' is no cluster name");
    assertThatThrownBy(() -> PipelineCallArguments.of("payments", "deploy", "", Map.of(), 0))
        .hasMessageContaining("timeoutMinutes is 0");
    Map<String, Object> noValue = new HashMap<>();
    noValue.put("VERSION", null);
    assertThatThrownBy(() -> PipelineCallArguments.of("payments", "deploy", "", noValue, 5))
        .hasMessageContaining("parameters.VERSION has no value");
  }
}
