package dev.varroa.operator.render.naming;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StatefulSetNameTest {
  private static final String UID = "1b4e28ba-2fa1-11d2-883f-0016d3cca427";

  @Test
  void rendersStatefulSetNameFromNameAndFirstEightUidCharacters() {
    assertThat(StatefulSetName.of("sandbox", "00000000-0000-0000-0000-000000000000")).isEqualTo("sandbox-00000000");
    assertThat(StatefulSetName.of("team-a", UID)).isEqualTo("team-a-1b4e28ba");
  }

  @Test
  void rendersStatefulSetNameWithDigitPrefix() {
    assertThat(StatefulSetName.of("42-team", UID)).isEqualTo("c-42-team-1b4e28ba");
  }

  @Test
  void truncatesLongNameSoPodsAndRevisionHashLabelFit() {
    String name = StatefulSetName.of("a".repeat(120), UID);

    assertThat(name).hasSize(StatefulSetName.MAX_LENGTH).endsWith("-1b4e28ba");
    assertThat(name + "-0").hasSizeLessThanOrEqualTo(63);
    assertThat(name + "-" + "0123456789").hasSizeLessThanOrEqualTo(63);
  }

  @Test
  void truncatesLongDigitNameWithPrefixIncluded() {
    String name = StatefulSetName.of("9".repeat(60), UID);

    assertThat(name).startsWith("c-9").hasSizeLessThanOrEqualTo(StatefulSetName.MAX_LENGTH).endsWith("-1b4e28ba");
  }

  @Test
  void neverLeavesADashBeforeTheUid() {
    // the cut at 43 characters lands right after a dash
    String name = StatefulSetName.of("a".repeat(42) + "-bbbbbbbbbb", UID);

    assertThat(name).isEqualTo("a".repeat(42) + "-1b4e28ba").doesNotContain("--");
  }

  @Test
  void replacesDotsThatServicesAndHostNamesRefuse() {
    assertThat(StatefulSetName.of("team.a", UID)).isEqualTo("team-a-1b4e28ba");
  }
}
