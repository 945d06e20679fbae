package dev.varroa.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerClass;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.PodTemplate;
import dev.varroa.api.v1alpha1.ProvisioningDefaults;
import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.operator.render.resolve.ControllerSettingsResolver;
import dev.varroa.operator.render.resolve.InstallationDefaults;
import dev.varroa.testfixtures.kube.StarterProfile;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The resolution step alone: inputs from a lookup, one value or one blocking reason naming the fix. */
class ControllerInputResolverTest {
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private static final String PROFILE = StarterProfile.PROFILE_YAML;

  /** Objects as the informers would hold them. */
  private static final class Lookup implements ControllerInputLookup {
    final List<HasMetadata> objects = new ArrayList<>();
    InstallationDefaults installation = InstallationDefaults.none();

    @Override
    public InstallationDefaults installation() {
      return installation;
    }

    Lookup with(Class<? extends HasMetadata> kind, String yaml) {
      objects.add(YAML.unmarshal(yaml, kind));
      return this;
    }

    private <T extends HasMetadata> Optional<T> find(Class<T> kind, String namespace, String name) {
      return objects.stream().filter(kind::isInstance).map(kind::cast)
          .filter(o -> o.getMetadata().getName().equals(name))
          .filter(o -> namespace == null || namespace.equals(o.getMetadata().getNamespace())).findFirst();
    }

    @Override
    public Optional<ProvisioningDefaults> defaults() {
      return find(ProvisioningDefaults.class, null, "default");
    }

    @Override
    public Optional<ControllerClass> controllerClass(String name) {
      return find(ControllerClass.class, null, name);
    }

    @Override
    public Optional<ComposedBundle> bundle(String namespace, String name) {
      return find(ComposedBundle.class, namespace, name);
    }

    @Override
    public Optional<ConfigMap> bundleRender(String namespace, String bundleName) {
      return find(ConfigMap.class, namespace, "varroa-bundle-" + bundleName);
    }

    @Override
    public Optional<JenkinsVersionProfile> profile(String name) {
      return find(JenkinsVersionProfile.class, null, name);
    }

    @Override
    public Optional<dev.varroa.api.v1alpha1.Team> team(String namespace, String name) {
      return find(dev.varroa.api.v1alpha1.Team.class, namespace, name);
    }

    @Override
    public List<UpdateCenter> updateCenters() {
      return objects.stream().filter(UpdateCenter.class::isInstance).map(UpdateCenter.class::cast).toList();
    }

    @Override
    public List<PodTemplate> podTemplates(String namespace) {
      return objects.stream().filter(PodTemplate.class::isInstance).map(PodTemplate.class::cast)
          .filter(t -> t.getMetadata().getNamespace().equals(namespace)).toList();
    }
  }

  private static Controller controller(String spec) {
    return YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: team-a, namespace: ci, uid: 0f3c2a9e-1111-2222-3333-444455556666}
        spec: %s
        """.formatted(spec), Controller.class);
  }

  private static ControllerInputResolver.Gathered gather(Controller controller, Lookup lookup) {
    return ControllerInputResolver.gather(controller, lookup, new StarterRenders());
  }

  /** The inputs of a Controller naming profile lts, which must be ready. */
  private static ControllerInputs ready(Lookup lookup) {
    ControllerInputResolver.Gathered gathered = gather(controller("{versionProfileRef: {name: lts}}"), lookup);
    assertThat(gathered).isInstanceOf(ControllerInputResolver.Ready.class);
    return ((ControllerInputResolver.Ready) gathered).inputs();
  }

  @Test
  void gathersACellsTeamsAndPluginsAndBlocksACellWhoseProfileLacksJobDsl() {
    String team = """
        apiVersion: varroa.dev/v1alpha1
        kind: Team
        metadata: {name: alpha, namespace: ci}
        spec: {pool: builds, subjects: [{kind: User, name: alice}]}
        """;
    String cellProfile = PROFILE.replace("metadata: {name: lts}", "metadata: {name: cells}")
        + String.join("", dev.varroa.operator.render.resolve.CellPlugins.NEEDED.stream()
            .filter(id -> !PROFILE.contains("id: " + id + ","))
            .map(id -> "    - {id: " + id + ", version: \"1.0\"}\n").toList());
    Lookup lookup = new Lookup().with(JenkinsVersionProfile.class, PROFILE)
        .with(JenkinsVersionProfile.class, cellProfile).with(dev.varroa.api.v1alpha1.Team.class, team);

    assertThat(gather(controller("{versionProfileRef: {name: lts}, cell: {pool: builds, teams: [alpha]}}"), lookup))
        .isInstanceOfSatisfying(ControllerInputResolver.Blocked.class, blocked -> assertThat(blocked.message())
            .contains("a cell needs plugin job-dsl", "fix: add job-dsl to JenkinsVersionProfile lts spec.plugins"));
    assertThat(ready(lookup).cell()).as("a Controller that is no cell").isEmpty();
    ControllerInputResolver.Gathered cell = gather(controller(
        "{versionProfileRef: {name: cells}, cell: {pool: builds, teams: [alpha, gone]}}"), lookup);
    assertThat(cell).isInstanceOfSatisfying(ControllerInputResolver.Ready.class, ready -> {
      assertThat(ready.inputs().cell()).get().satisfies(layer -> {
        assertThat(layer.teams()).extracting(t -> t.getMetadata().getName()).containsExactly("alpha");
        assertThat(layer.pluginsText()).contains("job-dsl:1.0");
      });
      assertThat(ready.inputs().authorization()).get().satisfies(a -> assertThat(a.yaml()).contains("projectMatrix",
          "alice"));
    });
  }

  @Test
  void gathersTheStarterBundleWithTheProfileTheDefaultsName() {
    Lookup lookup = new Lookup().with(JenkinsVersionProfile.class, PROFILE).with(ProvisioningDefaults.class, """
        apiVersion: varroa.dev/v1alpha1
        kind: ProvisioningDefaults
        metadata: {name: default}
        spec: {versionProfileRef: {name: lts}}
        """);
    ControllerInputResolver.Gathered gathered = gather(controller("{}"), lookup);
    assertThat(gathered).isInstanceOfSatisfying(ControllerInputResolver.Ready.class, ready -> {
      assertThat(ready.inputs().bundleName()).isEqualTo("varroa-starter");
      assertThat(ready.inputs().profile().getMetadata().getName()).isEqualTo("lts");
      assertThat(ready.inputs().rendered().digest()).startsWith("sha256:");
    });
  }

  @Test
  void theInstallationsMiteImageIsTheDefaultAndProvisioningDefaultsStillWin() {
    Lookup lookup = new Lookup().with(JenkinsVersionProfile.class, PROFILE);
    lookup.installation = new InstallationDefaults("registry.example.com/varroa/mite:0.1.0", Optional.empty());

    assertThat(ready(lookup).resolved().mite().image()).isEqualTo("registry.example.com/varroa/mite:0.1.0");
    lookup.with(ProvisioningDefaults.class, """
        apiVersion: varroa.dev/v1alpha1
        kind: ProvisioningDefaults
        metadata: {name: default}
        spec: {miteSpec: {image: mirror.example.com/mite:9}}
        """);
    assertThat(ready(lookup).resolved().mite().image()).isEqualTo("mirror.example.com/mite:9");
  }

  @Test
  void theInstallationsDownloadUrlServesControllersNoUpdateCenterTellsWhere() {
    Lookup lookup = new Lookup().with(JenkinsVersionProfile.class, PROFILE);
    lookup.installation = new InstallationDefaults(ControllerSettingsResolver.DEFAULT_MITE_IMAGE,
        Optional.of("https://uc.core.example.com/download/plugins"));

    assertThat(ready(lookup).updateCenter()).get().satisfies(uc -> {
      assertThat(uc.getSpec().url).isEqualTo("https://uc.core.example.com/update-center.json");
      assertThat(uc.getSpec().pluginDownloadURL).isEqualTo("https://uc.core.example.com/download/plugins");
    });
    lookup.with(UpdateCenter.class, """
        apiVersion: varroa.dev/v1alpha1
        kind: UpdateCenter
        metadata: {name: default}
        spec: {url: "https://mirror.example.com/update-center.json", pluginDownloadURL: "https://mirror.example.com/dl"}
        """);
    assertThat(ready(lookup).updateCenter()).get()
        .satisfies(uc -> assertThat(uc.getSpec().pluginDownloadURL).isEqualTo("https://mirror.example.com/dl"));
  }

  @Test
  void theClaimGateWithoutARecordStoreIsBlockedNamingTheFieldAndTheFix() {
    Lookup lookup = new Lookup().with(JenkinsVersionProfile.class, PROFILE);
    Controller gated = controller("{versionProfileRef: {name: lts}, buildClaims: {gate: true}}");

    assertThat(gather(gated, lookup)).isInstanceOfSatisfying(ControllerInputResolver.Blocked.class, blocked ->
        assertThat(blocked.message()).startsWith("spec.buildClaims.gate: ")
            .contains("no build record store").contains("fix: install Varroa with recordStore.enabled=true")
            .contains("or set spec.buildClaims.gate to false"));
    lookup.installation = InstallationDefaults.fromEnv(Map.of(InstallationDefaults.ENV_RECORD_STORE_ENABLED, "true"));
    assertThat(gather(gated, lookup)).isInstanceOfSatisfying(ControllerInputResolver.Ready.class,
        ready -> assertThat(ready.inputs().resolved().claimGate()).isTrue());
  }

  @Test
  void aRecordStoreSettingThatIsNotABooleanIsRefusedNamingTheVariable() {
    assertThatThrownBy(() -> InstallationDefaults.fromEnv(Map.of(InstallationDefaults.ENV_RECORD_STORE_ENABLED, "yes")))
        .hasMessageContaining("VARROA_RECORD_STORE_ENABLED is 'yes'").hasMessageContaining("fix: set it to true or false");
    assertThatThrownBy(() -> InstallationDefaults.fromEnv(Map.of(InstallationDefaults.ENV_VARROA_PLUGIN_URL,
        "/opt/varroa.hpi"))).hasMessageContaining("VARROA_JENKINS_PLUGIN_URL is '/opt/varroa.hpi'")
        .hasMessageContaining("fix: give an http(s) URL");
  }

  @Test
  void aProfileOverlayThatOpensTheStarterJenkinsIsBlockedNamingTheOverlayAndItsFix() {
    Lookup lookup = new Lookup().with(JenkinsVersionProfile.class, PROFILE.replace("  plugins:\n",
        "  jcascOverlay: |\n    jenkins:\n      authorizationStrategy: unsecured\n  plugins:\n"));

    assertThat(gather(controller("{versionProfileRef: {name: lts}}"), lookup))
        .isInstanceOfSatisfying(ControllerInputResolver.Blocked.class, blocked -> assertThat(blocked.message())
            .contains("conflict: profile lts: spec.jcascOverlay: jenkins.authorizationStrategy")
            .contains("fix: remove jenkins.authorizationStrategy").doesNotContain("lists the starter's plugins"));
  }

  @Test
  void aProfileLockingAnotherVarroaPluginIsBlockedNamingThePlugin() {
    Lookup lookup = new Lookup().with(JenkinsVersionProfile.class, PROFILE.replace("  plugins:\n",
        "  plugins:\n    - {id: varroa, version: \"0.0.1\"}\n"));

    assertThat(gather(controller("{versionProfileRef: {name: lts}}"), lookup))
        .isInstanceOfSatisfying(ControllerInputResolver.Blocked.class, blocked -> assertThat(blocked.message())
            .contains("plugins[varroa]").contains("names plugin varroa 0.0.1")
            .contains("fix: remove varroa from the bundle's plugins.yaml and the JenkinsVersionProfile's plugins"));
  }

  @Test
  void aDownloadUrlThatIsNotAnUpdateCentersIsRefusedNamingTheValue() {
    assertThatThrownBy(() -> new InstallationDefaults("m", Optional.of("https://uc.example.com/plugins")))
        .hasMessageContaining("pluginUpdateCenterDownloadURL").hasMessageContaining("/download/plugins");
  }

  @Test
  void blocksOnAMissingClassNamingTheField() {
    ControllerInputResolver.Gathered gathered = gather(controller("{classRef: {name: large}}"), new Lookup().with(JenkinsVersionProfile.class, PROFILE));
    assertThat(gathered).isInstanceOfSatisfying(ControllerInputResolver.Blocked.class,
        blocked -> assertThat(blocked.message()).contains("ControllerClass large").contains("spec.classRef.name")
            .contains("fix"));
  }

  @Test
  void blocksOnAMissingProfileAndOnAMissingBundle() {
    assertThat(gather(controller("{versionProfileRef: {name: gone}}"), new Lookup()))
        .isInstanceOfSatisfying(ControllerInputResolver.Blocked.class,
            blocked -> assertThat(blocked.message()).contains("JenkinsVersionProfile gone does not exist"));
    assertThat(gather(controller("{composedBundleRef: {name: team}}"), new Lookup().with(JenkinsVersionProfile.class, PROFILE)))
        .isInstanceOfSatisfying(ControllerInputResolver.Blocked.class,
            blocked -> assertThat(blocked.message()).contains("ComposedBundle team does not exist in namespace ci"));
  }

  @Test
  void blocksWhenTheManagedUpdateCenterLacksALockedPluginNamingPluginVersionAndFix() {
    Lookup lookup = new Lookup().with(JenkinsVersionProfile.class, PROFILE).with(ProvisioningDefaults.class, """
        apiVersion: varroa.dev/v1alpha1
        kind: ProvisioningDefaults
        metadata: {name: default}
        spec: {versionProfileRef: {name: lts}}
        """).with(UpdateCenter.class, """
        apiVersion: varroa.dev/v1alpha1
        kind: UpdateCenter
        metadata: {name: airgap}
        spec: {managed: {}}
        status:
          url: http://varroa-uc-airgap.varroa-system.svc/update-center.json
          availablePlugins: ["configuration-as-code:2006.v001a_2ca_6b_574", "kubernetes:4384.v1b_6367f393d9",
            "workflow-aggregator:608.v67378e9d3db_1", "credentials:1453.v9b_a_29777a_b_fd"]
          missing: [{id: git, version: "5.8.0", reason: "not held and no upstream update site is configured"}]
        """);

    assertThat(gather(controller("{}"), lookup)).isInstanceOfSatisfying(ControllerInputResolver.Blocked.class,
        blocked -> assertThat(blocked.message()).contains("UpdateCenter airgap does not hold plugin git 5.8.0")
            .contains("the built-in varroa-starter bundle").contains("fix:").contains("varroactl updatecenter import"));
  }

  @Test
  void anExternalUpdateCenterIsNotCheckedForPlugins() {
    Lookup lookup = new Lookup().with(JenkinsVersionProfile.class, PROFILE).with(ProvisioningDefaults.class, """
        apiVersion: varroa.dev/v1alpha1
        kind: ProvisioningDefaults
        metadata: {name: default}
        spec: {versionProfileRef: {name: lts}}
        """).with(UpdateCenter.class, """
        apiVersion: varroa.dev/v1alpha1
        kind: UpdateCenter
        metadata: {name: mirror}
        spec: {url: "https://mirror.example.com/update-center.json"}
        """);

    assertThat(gather(controller("{}"), lookup)).isInstanceOf(ControllerInputResolver.Ready.class);
  }

  @Test
  void waitsForABundleThatHasNoRenderYet() {
    Lookup lookup = new Lookup().with(JenkinsVersionProfile.class, PROFILE).with(ComposedBundle.class, """
        apiVersion: varroa.dev/v1alpha1
        kind: ComposedBundle
        metadata: {name: team, namespace: ci}
        spec:
          versionProfileRef: {name: lts}
          inputs:
            - git: {url: "https://git.example.com/team.git", ref: {branch: main}}
        """);
    assertThat(gather(controller("{composedBundleRef: {name: team}}"), lookup))
        .isEqualTo(new ControllerInputResolver.WaitingForBundle("team"));
  }

  @Test
  void findsTheProfileAControllerUsesThroughItsClass() {
    Lookup lookup = new Lookup().with(JenkinsVersionProfile.class, PROFILE).with(ControllerClass.class, """
        apiVersion: varroa.dev/v1alpha1
        kind: ControllerClass
        metadata: {name: small}
        spec: {versionProfileRef: {name: lts}}
        """);
    assertThat(ControllerInputResolver.profileName(controller("{classRef: {name: small}}"), lookup)).contains("lts");
    assertThat(ControllerInputResolver.profileName(controller("{}"), lookup)).isEmpty();
  }
}
