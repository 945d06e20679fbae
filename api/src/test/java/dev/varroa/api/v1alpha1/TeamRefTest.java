package dev.varroa.api.v1alpha1;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

/** How a pool, its cells and the Jenkins folder name a Team: plain in the pool's namespace, namespace/name elsewhere. */
class TeamRefTest {

  private static Team team(String namespace, String name, String poolNamespace) {
    Team team = new Team();
    team.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name).build());
    team.setSpec(new TeamSpec());
    team.getSpec().pool = "shared";
    team.getSpec().poolNamespace = poolNamespace;
    return team;
  }

  @Test
  void aTeamOfThePoolsNamespaceIsItsName() {
    Team payments = team("ci", "payments", null);

    assertThat(TeamRef.poolNamespace(payments)).isEqualTo("ci");
    assertThat(TeamRef.key(payments)).isEqualTo("payments");
    assertThat(TeamRef.folder(payments)).isEqualTo("payments");
  }

  @Test
  void aTeamOfAnotherNamespaceIsNamespaceSlashNameAndItsFolderCannotClash() {
    Team payments = team("tenant-a", "payments", "cells");

    assertThat(TeamRef.poolNamespace(payments)).isEqualTo("cells");
    assertThat(TeamRef.key(payments)).isEqualTo("tenant-a/payments");
    assertThat(TeamRef.folder(payments)).isEqualTo("tenant-a_payments");
    assertThat(TeamRef.parse("tenant-a/payments", "cells")).isEqualTo(new TeamRef("tenant-a", "payments"));
    assertThat(TeamRef.parse("payments", "cells")).isEqualTo(new TeamRef("cells", "payments"));
  }
}
