package dev.varroa.operator.render;

import static dev.varroa.operator.render.CellFixtures.team;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TeamFolderCheckTest {
  @Test
  void refusesTwoPipelinesOfOneNameNamingTheTeamTheFieldAndTheFix() {
    assertThat(TeamFolderCheck.problems(team("alpha", """
        pipelines:
          - {name: build, repository: "https://git.example.com/a.git"}
          - {name: test, repository: "https://git.example.com/b.git"}
          - {name: build, repository: "https://git.example.com/c.git"}
        """))).containsExactly("Team ci/alpha: spec.pipelines[2].name build repeats spec.pipelines[0].name, and a"
        + " folder holds one job of a name; fix: rename one of them, or remove it");
  }

  @Test
  void refusesTwoCredentialsOfOneId() {
    assertThat(TeamFolderCheck.problems(team("alpha", """
        credentials:
          - {id: token, type: secretText, secretRef: {name: a, key: k}}
          - {id: token, type: secretText, secretRef: {name: b, key: k}}
        """))).singleElement().asString().startsWith("Team ci/alpha: spec.credentials[1].id token repeats"
        + " spec.credentials[0].id").contains("fix: give it another id, or remove it");
  }

  @Test
  void refusesAPipelineCredentialsIdThatIsNoneOfTheTeamsCredentials() {
    assertThat(TeamFolderCheck.problems(team("alpha", """
        credentials:
          - {id: token, type: secretText, secretRef: {name: a, key: k}}
        pipelines:
          - {name: build, repository: "https://git.example.com/a.git", credentialsId: tokn}
          - {name: test, repository: "https://git.example.com/a.git", credentialsId: token}
        """))).containsExactly("Team ci/alpha: spec.pipelines[0].credentialsId tokn is not the id of one of its"
        + " spec.credentials (its credentials are token); fix: add a credential with id tokn to spec.credentials, or"
        + " correct spec.pipelines[0].credentialsId");
  }

  @Test
  void refusesTheVarroaIdentityAsASubjectAndPassesAGoodTeam() {
    assertThat(TeamFolderCheck.problems(team("alpha", "subjects: [{kind: User, name: varroa}]\n")))
        .singleElement().asString().contains("spec.subjects[0] is User varroa", "fix: remove that subject");
    assertThat(TeamFolderCheck.problems(team("alpha", """
        subjects: [{kind: Group, name: devs}]
        credentials:
          - {id: token, type: secretText, secretRef: {name: a, key: k}}
        pipelines:
          - {name: build, repository: "https://git.example.com/a.git", credentialsId: token}
        """))).isEmpty();
  }
}
