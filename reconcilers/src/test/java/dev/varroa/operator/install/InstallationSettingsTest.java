package dev.varroa.operator.install;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class InstallationSettingsTest {

  @Test
  void readsTheMembersWithTheirOwnNatsIdentityFromTheChartsList() {
    InstallationSettings settings = InstallationSettings.fromEnv(Map.of("VARROA_INSTALL_MODE", "full",
        "VARROA_NATS_MEMBERS", "member-eu1, member-us1,"), "varroa-system").orElseThrow();

    assertThat(settings.natsMembers()).containsExactly("member-eu1", "member-us1");
  }

  @Test
  void hasNoMembersWhenTheChartListsNone() {
    InstallationSettings settings = InstallationSettings.fromEnv(Map.of("VARROA_INSTALL_MODE", "full",
        "VARROA_NATS_MEMBERS", ""), "varroa-system").orElseThrow();

    assertThat(settings.natsMembers()).isEmpty();
    assertThat(InstallationSecrets.memberCredsSecret("member-eu1")).isEqualTo("varroa-nats-creds-member-eu1");
  }
}
