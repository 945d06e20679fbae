package dev.varroa.recorder.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RetentionRulesTest {

  @Test
  void defaultsAreHalfAYearOfBuildsAQuarterOfActivityAndAMonthOfLogsSweptHourly() {
    RetentionRules rules = RetentionRules.fromEnv(Map.of());
    assertThat(rules.runs()).isEqualTo(Duration.ofDays(180));
    assertThat(rules.stages()).isEqualTo(Duration.ofDays(180));
    assertThat(rules.tests()).isEqualTo(Duration.ofDays(180));
    assertThat(rules.activity()).isEqualTo(Duration.ofDays(90));
    assertThat(rules.logs()).isEqualTo(Duration.ofDays(30));
    assertThat(rules.interval()).isEqualTo(Duration.ofHours(1));
    assertThat(rules).isEqualTo(RetentionRules.defaults());
  }

  @Test
  void readsDaysHoursMinutesAndZeroForForever() {
    RetentionRules rules = RetentionRules.fromEnv(Map.of("VARROA_RETENTION_RUNS", "365d",
        "VARROA_RETENTION_STAGES", "0", "VARROA_RETENTION_TESTS", " 48h ", "VARROA_RETENTION_ACTIVITY", "0d",
        "VARROA_RETENTION_LOGS", "90m", "VARROA_RETENTION_INTERVAL", "15m"));
    assertThat(rules.runs()).isEqualTo(Duration.ofDays(365));
    assertThat(rules.stages()).isZero();
    assertThat(rules.tests()).isEqualTo(Duration.ofHours(48));
    assertThat(rules.activity()).isZero();
    assertThat(rules.logs()).isEqualTo(Duration.ofMinutes(90));
    assertThat(rules.interval()).isEqualTo(Duration.ofMinutes(15));
    assertThat(rules.toString()).isEqualTo("runs=365d stages=0 tests=2d activity=0 logs=90m interval=15m");
  }

  @Test
  void refusesAnUnreadableAgeNamingTheVariableAndTheFix() {
    assertThatThrownBy(() -> RetentionRules.fromEnv(Map.of("VARROA_RETENTION_LOGS", "30 days")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("VARROA_RETENTION_LOGS='30 days'")
        .hasMessageContaining("30d, 12h or 45m")
        .hasMessageContaining("0 to keep forever");
    assertThatThrownBy(() -> RetentionRules.fromEnv(Map.of("VARROA_RETENTION_RUNS", "6w")))
        .hasMessageContaining("VARROA_RETENTION_RUNS='6w'").hasMessageContaining("default 180d");
    assertThatThrownBy(() -> RetentionRules.fromEnv(Map.of("VARROA_RETENTION_ACTIVITY", "-1d")))
        .hasMessageContaining("VARROA_RETENTION_ACTIVITY='-1d'");
  }

  @Test
  void refusesAZeroIntervalPointingAtTheAgesInstead() {
    assertThatThrownBy(() -> RetentionRules.fromEnv(Map.of("VARROA_RETENTION_INTERVAL", "0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("VARROA_RETENTION_INTERVAL=0")
        .hasMessageContaining("VARROA_RETENTION_RUNS=0");
  }
}
