package dev.varroa.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CellFoldersTest {

  @Test
  void aFolderOfAnotherNamespaceNamesItBeforeTheUnderscore() {
    assertThat(CellFolders.teamNamespace("team-a_web/build", "cells")).contains("team-a");
    assertThat(CellFolders.teamNamespace("team-a_web/sub/build", "cells")).contains("team-a");
  }

  @Test
  void aFolderWithoutUnderscoreIsATeamOfThePoolsNamespace() {
    assertThat(CellFolders.teamNamespace("payments/service", "cells")).contains("cells");
  }

  @Test
  void aJobOutsideAnyFolderHasNoTeam() {
    assertThat(CellFolders.teamNamespace("seed", "cells")).isEmpty();
    assertThat(CellFolders.teamNamespace("/x", "cells")).isEmpty();
    assertThat(CellFolders.teamNamespace("_x/y", "cells")).isEmpty();
    assertThat(CellFolders.teamNamespace(null, "cells")).isEmpty();
  }
}
