package dev.varroa.operator.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PipelineRunSettingsTest {

  @Test
  void aRunWaitsFifteenMinutesByDefault() {
    assertThat(PipelineRunSettings.fromEnv(Map.of()).deadline()).isEqualTo(Duration.ofMinutes(15));
    assertThat(PipelineRunSettings.fromEnv(Map.of(PipelineRunSettings.ENV_DEADLINE, " ")).deadlineText())
        .isEqualTo("15 min");
  }

  @Test
  void readsSecondsOrIso8601() {
    assertThat(PipelineRunSettings.fromEnv(Map.of(PipelineRunSettings.ENV_DEADLINE, "1800")).deadline())
        .isEqualTo(Duration.ofMinutes(30));
    assertThat(PipelineRunSettings.fromEnv(Map.of(PipelineRunSettings.ENV_DEADLINE, "pt90s")).deadlineText())
        .isEqualTo("90 s");
  }

  @Test
  void refusesWhatIsNotADurationNamingTheVariableAndTheFix() {
    for (String bad : new String[] {"15m", "0", "PT-5M", "soon"}) {
      assertThatThrownBy(() -> PipelineRunSettings.fromEnv(Map.of(PipelineRunSettings.ENV_DEADLINE, bad)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("VARROA_PIPELINE_RUN_DEADLINE='" + bad + "'")
          .hasMessageContaining("give seconds (e.g. 900) or ISO-8601 (e.g. PT15M)");
    }
  }
}
