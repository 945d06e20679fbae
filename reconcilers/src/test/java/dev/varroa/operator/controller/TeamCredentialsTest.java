package dev.varroa.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.operator.render.CellFixtures;
import dev.varroa.operator.render.CellLayer;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TeamCredentialsTest {
  private static final CellLayer CELL = CellFixtures.layer(List.of(CellFixtures.team("alpha", """
      credentials:
        - {id: git, type: usernamePassword, secretRef: {name: alpha-git, key: token, usernameKey: user}}
        - {id: hook, type: secretText, secretRef: {name: alpha-hook, key: url, usernameKey: ignored}}
      """)), Map.of());

  @Test
  void readsEachCredentialIntoTheSecretFilesTheFolderScriptNames() {
    MiteSecrets.Resolution resolution = TeamCredentials.resolve((namespace, name) -> {
      assertThat(namespace).as("the Team's namespace").isEqualTo("ci");
      return Optional.of(switch (name) {
        case "alpha-git" -> secret(name, Map.of("token", "t0ken", "user", "bot"));
        default -> secret(name, Map.of("url", "https://hook"));
      });
    }, CELL);

    assertThat(resolution.problem()).isEmpty();
    assertThat(resolution.values()).containsOnlyKeys("varroa-team_alpha_secret_git", "varroa-team_alpha_username_git",
        "varroa-team_alpha_secret_hook");
    assertThat(new String(resolution.values().get("varroa-team_alpha_secret_git"), StandardCharsets.UTF_8))
        .isEqualTo("t0ken");
    assertThat(new String(resolution.values().get("varroa-team_alpha_username_git"), StandardCharsets.UTF_8))
        .isEqualTo("bot");
  }

  @Test
  void namesTheTeamTheFieldAndTheFixForAMissingSecretOrKey() {
    assertThat(TeamCredentials.resolve((namespace, name) -> Optional.empty(), CELL).problem()).contains(
        "Team ci/alpha: spec.credentials[0] (git) names Secret alpha-git, which does not exist in namespace ci; fix:"
            + " create it, or correct spec.credentials[0].secretRef.name");
    assertThat(TeamCredentials.resolve((namespace, name) -> Optional.of(secret(name, Map.of("token", "t0ken"))), CELL)
        .problem()).contains("Team ci/alpha: spec.credentials[0] (git) names key user of Secret alpha-git, which has"
            + " no such key; fix: add it, or correct spec.credentials[0].secretRef.usernameKey");
  }

  private static Secret secret(String name, Map<String, String> values) {
    return new SecretBuilder().withNewMetadata().withName(name).withNamespace("ci").endMetadata()
        .withStringData(values).build();
  }
}
