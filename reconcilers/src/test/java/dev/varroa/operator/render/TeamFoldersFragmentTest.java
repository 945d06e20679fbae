package dev.varroa.operator.render;

import static dev.varroa.operator.render.CellFixtures.layer;
import static dev.varroa.operator.render.CellFixtures.team;
import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.Subject;
import dev.varroa.api.v1alpha1.Team;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

class TeamFoldersFragmentTest {
  private static final Team ALPHA = team("alpha", """
      subjects:
        - {kind: User, name: alice}
        - {kind: Group, name: alpha-devs}
      callableBy: [beta, gone]
      credentials:
        - {id: git-token, type: usernamePassword, secretRef: {name: alpha-git, key: token, usernameKey: user}}
        - {id: deploy-key, type: sshPrivateKey, secretRef: {name: alpha-ssh, key: id_ed25519}}
        - {id: slack, type: secretText, secretRef: {name: alpha-slack, key: webhook}, description: "the alerts hook"}
      pipelines:
        - name: build
          repository: https://git.example.com/alpha/app.git
          credentialsId: git-token
          triggers: {cron: "H 2 * * *", pollScm: "H/5 * * * *"}
        - name: release
          repository: https://git.example.com/alpha/release.git
          branch: stable
          scriptPath: ci/Release.groovy
      """);
  private static final Team BETA = team("beta", """
      subjects:
        - {kind: User, name: bob}
      pipelines:
        - {name: nightly, repository: "https://git.example.com/beta/app.git"}
      """);

  @SuppressWarnings("unchecked")
  private static List<String> scripts(CellLayer cell) {
    Map<String, Object> root = (Map<String, Object>) new Load(LoadSettings.builder().build())
        .loadFromString(TeamFoldersFragment.render(cell));
    assertThat(root).containsOnlyKeys("jobs");
    return ((List<Map<String, Object>>) root.get("jobs")).stream().map(job -> {
      assertThat(job).containsOnlyKeys("script");
      return (String) job.get("script");
    }).toList();
  }

  @Test
  void rendersAFolderPerTeamSortedByNameWithItsPipelineJobsFromScm() {
    List<String> scripts = scripts(layer(List.of(BETA, ALPHA), Map.of()));

    assertThat(scripts).hasSize(2);
    assertThat(scripts.get(0)).startsWith("folder('alpha') {")
        .contains("pipelineJob('alpha/build') {", "url('https://git.example.com/alpha/app.git')",
            "credentials('git-token')", "branch('*/main')", "scriptPath('Jenkinsfile')")
        .contains("pipelineJob('alpha/release') {", "branch('*/stable')", "scriptPath('ci/Release.groovy')")
        .doesNotContain("beta/");
    assertThat(scripts.get(1)).startsWith("folder('beta') {").contains("pipelineJob('beta/nightly') {")
        .doesNotContain("alpha/");
  }

  @Test
  void rendersTimerAndPollingTriggersOnlyWhereTheTeamAsksForThem() {
    String alpha = scripts(layer(List.of(ALPHA), Map.of())).get(0);
    String build = alpha.substring(alpha.indexOf("pipelineJob('alpha/build')"), alpha.indexOf("pipelineJob('alpha/release')"));
    String release = alpha.substring(alpha.indexOf("pipelineJob('alpha/release')"));

    assertThat(build).contains("pipelineTriggers {", "cron {\n          spec('H 2 * * *')",
        "pollSCM {\n          scmpoll_spec('H/5 * * * *')");
    assertThat(release).doesNotContain("pipelineTriggers", "cron", "pollSCM");
  }

  @Test
  void aTeamOfAnotherNamespaceGetsAFolderNoTeamOfThePoolsNamespaceCanHave() {
    Team foreign = RenderFixtures.object(Team.class, """
        apiVersion: varroa.dev/v1alpha1
        kind: Team
        metadata: {name: payments, namespace: tenant-a}
        spec:
          pool: builds
          poolNamespace: ci
          subjects: [{kind: Group, name: payments-devs}]
          callableBy: [checkout]
          pipelines: [{name: service, repository: 'https://git.example.com/payments.git', credentialsId: git}]
          credentials: [{id: git, type: secretText, secretRef: {name: git, key: token}}]
        """);
    String script = scripts(layer(List.of(foreign), Map.of("tenant-a/checkout", List.of(subject("carol"))))).get(0);

    assertThat(script).contains("folder('tenant-a_payments')", "pipelineJob('tenant-a_payments/service')",
        "Team tenant-a/payments", TeamFoldersFragment.secretFile("tenant-a_payments", "git"));
    assertThat(script).as("its callableBy is read in its own namespace").contains("name('carol')");
  }

  @Test
  void aDrainingCellKeepsItsJobsForQueuedBuildsButNoTrigger() {
    CellLayer stays = layer(List.of(ALPHA), Map.of());
    CellLayer draining = new CellLayer(stays.teams(), stays.callers(), stays.pluginsText(), stays.ignoredPin(), true,
        "shared");
    String alpha = scripts(draining).get(0);

    assertThat(alpha).contains("pipelineJob('alpha/build')", "pipelineJob('alpha/release')");
    assertThat(alpha).doesNotContain("pipelineTriggers", "cron", "pollSCM");
  }

  @Test
  void scopesEachFolderToItsTeamAndItsCallersWithoutInheritingAnything() {
    Subject carol = new Subject();
    carol.kind = Subject.Kind.User;
    carol.name = "carol";
    // callers are keyed namespace/name (CellLayer.callerKey), however the naming Team wrote them
    List<String> scripts = scripts(layer(List.of(ALPHA, BETA), Map.of("ci/beta", List.of(subject("bob")),
        "ci/other", List.of(carol))));
    String alpha = scripts.get(0);
    String beta = scripts.get(1);

    assertThat(alpha).contains("inheritanceStrategy {\n        nonInheriting()\n      }")
        .contains("user {\n          name('alice')\n          permissions(['Job/Build', 'Job/Cancel', 'Job/Read'])")
        .contains("group {\n          name('alpha-devs')\n          permissions(['Job/Build', 'Job/Cancel', 'Job/Read'])")
        .as("beta may call alpha: bob reads and builds, no more")
        .contains("user {\n          name('bob')\n          permissions(['Job/Build', 'Job/Read'])")
        .as("a Team that is not in callableBy, and one that does not exist, get nothing").doesNotContain("carol",
            "gone");
    assertThat(beta).contains("nonInheriting()", "name('bob')")
        .as("alpha is not in beta's callableBy").doesNotContain("alice", "alpha-devs");
  }

  @Test
  void makesEachCredentialAFolderCredentialReadFromItsSecretFileAndHoldsNoValue() {
    String alpha = scripts(layer(List.of(ALPHA), Map.of())).get(0);
    String credentials = alpha.substring(alpha.indexOf("folderCredentialsProperty"), alpha.indexOf("pipelineJob("));

    assertThat(credentials).contains("usernamePassword {", "id('git-token')",
        "username(new String('${fileBase64:/run/secrets/varroa-team_alpha_username_git-token}'.decodeBase64(), 'UTF-8'))",
        "password(new String('${fileBase64:/run/secrets/varroa-team_alpha_secret_git-token}'.decodeBase64(), 'UTF-8'))");
    assertThat(credentials).contains("basicSSHUserPrivateKey {", "id('deploy-key')", "username('')",
        "directEntry {\n" + " ".repeat(18) + "privateKey(new String('${fileBase64:/run/secrets/varroa-team_alpha_secret_deploy-key}'");
    assertThat(credentials).contains("string {", "id('slack')", "description('the alerts hook')",
        "secret(new String('${fileBase64:/run/secrets/varroa-team_alpha_secret_slack}'.decodeBase64(), 'UTF-8'))");
    assertThat(TeamFoldersFragment.secretFile("alpha", "git-token")).isEqualTo("varroa-team_alpha_secret_git-token");
    assertThat(BETA.getSpec().credentials).isNull();
    assertThat(scripts(layer(List.of(BETA), Map.of())).get(0)).as("no credentials, no store")
        .doesNotContain("folderCredentialsProperty");
  }

  @Test
  void keepsTeamTextFromChangingTheScriptOrBeingResolvedByJcasc() {
    Team tricky = team("tricky", """
        pipelines:
          - name: p
            repository: "https://git.example.com/x.git') ; Jenkins.get().doSafeExit(null) ; ('${HOME}\\\\"
        """);

    String script = scripts(layer(List.of(tricky), Map.of())).get(0);

    assertThat(script).contains("url('https://git.example.com/x.git\\') ; Jenkins.get().doSafeExit(null) ;"
        + " (\\'^${HOME}\\\\')");
  }

  @Test
  void addsTheFileToACellsJcascConfigMapOnly() {
    RenderInput plain = RenderFixtures.input("");
    RenderInput cell = plain.withCell(Optional.of(layer(List.of(ALPHA), Map.of())));

    assertThat(JcascConfigMapRenderer.render(plain).getData()).doesNotContainKey(TeamFoldersFragment.FILE);
    ConfigMap configMap = JcascConfigMapRenderer.render(cell);
    assertThat(configMap.getData()).containsKey(TeamFoldersFragment.FILE);
    assertThat(configMap.getData().get(TeamFoldersFragment.FILE)).contains("folder('alpha')");
    assertThat(PluginsConfigMapRenderer.pluginsText(cell)).as("the cell's plugin list, not the bundle's")
        .startsWith("git:5.8.0\n").doesNotContain("configuration-as-code");
  }

  private static Subject subject(String user) {
    Subject subject = new Subject();
    subject.kind = Subject.Kind.User;
    subject.name = user;
    return subject;
  }
}
