package dev.varroa.operator.render;

import static dev.varroa.operator.render.RenderFixtures.controller;
import static dev.varroa.operator.render.RenderFixtures.input;
import static dev.varroa.operator.render.RenderFixtures.podTemplate;
import static dev.varroa.operator.render.RenderFixtures.profile;
import static dev.varroa.operator.render.RenderFixtures.resolved;
import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.operator.render.resolve.ControllerSettingsResolver;
import dev.varroa.operator.render.resolve.InstallationDefaults;
import dev.varroa.operator.render.resolve.ResolvedController;
import dev.varroa.operator.render.resolve.VarroaPlugin;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

class JcascConfigMapRendererTest {
  @SuppressWarnings("unchecked")
  private static Map<String, Object> cloud(ConfigMap configMap) {
    Object root = new Load(LoadSettings.builder().build()).loadFromString(
        configMap.getData().get(KubernetesCloudFragment.FILE));
    Map<String, Object> jenkins = (Map<String, Object>) ((Map<String, Object>) root).get("jenkins");
    List<Map<String, Object>> clouds = (List<Map<String, Object>>) jenkins.get("clouds");
    return (Map<String, Object>) clouds.get(0).get("kubernetes");
  }

  @Test
  void holdsBundleJcascAndVarroaCloudUnderDigestFreeName() {
    RenderInput input = input("");
    ConfigMap configMap = JcascConfigMapRenderer.render(input);

    assertThat(configMap.getMetadata().getName()).isEqualTo("team-a-1b4e28ba-casc").doesNotContain("sha256");
    assertThat(configMap.getData()).containsOnlyKeys("jcasc.yaml", "varroa-cloud.yaml", "varroa-security.yaml");
    assertThat(configMap.getData().get("jcasc.yaml")).isEqualTo(input.bundle().jcascText());
    assertThat(configMap.getMetadata().getAnnotations()).containsEntry("varroa.dev/bundle-digest", input.bundle().digest());
  }

  @Test
  void pointsCloudAtAgentsNamespaceThroughDirectTunnel() {
    Map<String, Object> cloud = cloud(JcascConfigMapRenderer.render(input("")));

    assertThat(cloud).containsEntry("name", "varroa")
        .containsEntry("namespace", "ci-jobs")
        .containsEntry("jenkinsUrl", "http://team-a-1b4e28ba.ci.svc:8080/")
        .containsEntry("jenkinsTunnel", "team-a-1b4e28ba.ci.svc:50000")
        .containsEntry("webSocket", false);
  }

  @Test
  void connectsAgentsOverWebSocketWhenAsked() {
    // team-a-agents is not ci-jobs: an administrator allows it in ProvisioningDefaults
    ResolvedController controller = ControllerSettingsResolver.resolve(
        controller("agents: {tunnel: websocket, namespace: team-a-agents}\ningress: {enabled: true, host: j.example.com}\n"),
        Optional.empty(), Optional.of(RenderFixtures.defaults(
            "allowedAgentsNamespaces: [{controllerNamespace: ci, agentsNamespaces: [team-a-agents]}]\n"))).controller();
    Map<String, Object> cloud = cloud(JcascConfigMapRenderer.render(
        input(controller, RenderFixtures.JCASC, profile(), Optional.empty(), List.of())));

    assertThat(cloud).containsEntry("webSocket", true).containsEntry("namespace", "team-a-agents")
        .containsEntry("jenkinsUrl", "http://team-a-1b4e28ba.ci.svc:8080/")
        .doesNotContainKey("jenkinsTunnel");
  }

  @Test
  void keepsOrphanPodGarbageCollectionOn() {
    assertThat(cloud(JcascConfigMapRenderer.render(input(""))).get("garbageCollection"))
        .isEqualTo(Map.of("namespaces", "ci-jobs", "timeout", 300));
  }

  @Test
  @SuppressWarnings("unchecked")
  void rendersPodTemplatesWhoseSelectorMatchesTheController() {
    RenderInput input = input(resolved(controller("")), RenderFixtures.JCASC, profile(), Optional.empty(), List.of(
        podTemplate("maven", """
            label: maven java-21
            instanceCap: 10
            idleMinutes: 0
            nodeUsageMode: EXCLUSIVE
            serviceAccountName: builder
            pod:
              containers:
                - {name: maven, image: "maven:3.9", command: [sh, -c, "echo ${HOME}"]}
            """),
        podTemplate("team-b-only", "label: b\ncontrollerSelector: {matchLabels: {team: b}}\n"),
        podTemplate("any-team", "label: any\ncontrollerSelector: {matchExpressions: [{key: team, operator: Exists}]}\n")));

    List<Map<String, Object>> templates = (List<Map<String, Object>>) cloud(JcascConfigMapRenderer.render(input))
        .get("templates");

    assertThat(templates).extracting(t -> t.get("name")).containsExactly("any-team", "maven");
    assertThat(templates.get(1)).containsEntry("label", "maven java-21").containsEntry("instanceCap", 10)
        .containsEntry("idleMinutes", 0).containsEntry("nodeUsageMode", "EXCLUSIVE")
        .containsEntry("serviceAccount", "builder");
    assertThat((String) templates.get(1).get("yaml")).contains("kind: \"Pod\"").contains("image: \"maven:3.9\"")
        .contains("^${HOME}");
  }

  @Test
  void keepsSecretValuesOutOfEveryConfigMap() {
    String secretValue = "ghp_s3cr3t-value-never-in-a-configmap";
    RenderInput input = input(resolved(controller("""
        secrets:
          - {name: GITHUB_TOKEN, secretKeyRef: {name: team-a-github, key: token}}
        agents: {knownHosts: "github.com ssh-ed25519 AAAA"}
        """)), "jenkins:\n  systemMessage: \"token ${GITHUB_TOKEN}\"\n", profile(), Optional.empty(), List.of());

    List<ConfigMap> configMaps = ControllerObjects.render(input).stream()
        .filter(ConfigMap.class::isInstance).map(ConfigMap.class::cast).toList();

    assertThat(configMaps).hasSize(4);
    assertThat(configMaps).allSatisfy(cm -> assertThat(cm.getData().values())
        .noneMatch(v -> v.contains(secretValue)).noneMatch(v -> v.contains("team-a-github")));
    assertThat(JcascConfigMapRenderer.render(input).getData().get("jcasc.yaml")).contains("${GITHUB_TOKEN}");
    // the value reaches Jenkins only as a file the mite writes: the pod names no Secret at all
    String pod = RenderFixtures.YAML.asYaml(StatefulSetRenderer.podTemplate(input));
    assertThat(pod).doesNotContain("secretKeyRef").doesNotContain("team-a-github").doesNotContain("secretName");
  }

  @Test
  void putsLockedPluginsIntoPluginsConfigMap() {
    RenderInput input = input("");
    ConfigMap plugins = PluginsConfigMapRenderer.render(input);

    assertThat(plugins.getMetadata().getName()).isEqualTo("team-a-1b4e28ba-plugins");
    assertThat(plugins.getData()).containsOnlyKeys("plugins.txt");
    assertThat(input.bundle().pluginsText()).contains("git:5.8.0");
    assertThat(plugins.getData().get("plugins.txt")).isEqualTo(input.bundle().pluginsText()
        .replace("git:5.8.0\n", "git:5.8.0\nvarroa:" + VarroaPlugin.VERSION + "\n"));
  }

  @Test
  void locksTheVarroaPluginOfTheOperatorsReleaseFromTheInstallationsUrlWhenItNamesOne() {
    RenderInput plain = input("");
    RenderInput withUrl = new RenderInput(plain.controller(), plain.profile(), plain.bundle(), Optional.empty(),
        List.of(), ChannelEndpoint.unconfigured(), new InstallationDefaults("mite", Optional.empty(),
            Optional.of("https://files.example.com/varroa.hpi"), false));

    assertThat(VarroaPlugin.VERSION).isEqualTo(dev.varroa.protocol.ReleaseVersion.CURRENT).isNotBlank();
    assertThat(PluginsConfigMapRenderer.pluginsText(withUrl))
        .contains("\nvarroa:" + VarroaPlugin.VERSION + ":https://files.example.com/varroa.hpi\n");
    assertThat(RestartHash.of(withUrl)).isNotEqualTo(RestartHash.of(plain));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> security(ConfigMap configMap) {
    String text = configMap.getData().get(SecurityFragment.FILE);
    if (text == null) {
      return Map.of();
    }
    Map<String, Object> root = (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(text);
    return (Map<String, Object>) root.get("jenkins");
  }

  @Test
  void securesEveryJenkinsWithTheVarroaRealmAndTheFailClosedStrategy() {
    Map<String, Object> jenkins = security(JcascConfigMapRenderer.render(input("")));

    assertThat(jenkins).containsOnly(Map.entry("securityRealm", Map.of("varroa", Map.of())),
        Map.entry("authorizationStrategy", Map.of("varroa", Map.of())));
  }

  @Test
  void keepsTheBundlesOwnRealmAndStrategyAndAddsOnlyWhatItLeavesOpen() {
    RenderInput realmOnly = input(resolved(controller("")),
        "jenkins:\n  securityRealm:\n    ldap:\n      configurations:\n        - server: ldap.example.com\n",
        profile(), Optional.empty(), List.of());
    RenderInput both = input(resolved(controller("")), """
        jenkins:
          securityRealm:
            ldap:
              configurations:
                - server: ldap.example.com
          authorizationStrategy:
            loggedInUsersCanDoAnything:
              allowAnonymousRead: false
        """, profile(), Optional.empty(), List.of());

    assertThat(security(JcascConfigMapRenderer.render(realmOnly)))
        .containsOnly(Map.entry("authorizationStrategy", Map.of("varroa", Map.of())));
    assertThat(JcascConfigMapRenderer.render(both).getData()).doesNotContainKey(SecurityFragment.FILE);
  }
}
