package dev.varroa.operator.render;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerClass;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.PodTemplate;
import dev.varroa.api.v1alpha1.ProvisioningDefaults;
import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleFiles;
import dev.varroa.bundle.InputRef;
import dev.varroa.bundle.JenkinsEnvironment;
import dev.varroa.bundle.RenderRequest;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.compose.VersionProfileConversion;
import dev.varroa.bundle.render.BundleRenderer;
import dev.varroa.bundle.render.RenderedBundle;
import dev.varroa.operator.render.resolve.ControllerSettingsResolver;
import dev.varroa.operator.render.resolve.ResolvedController;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Small objects for renderer tests, written as the YAML a user would apply. */
public final class RenderFixtures {
  public static final KubernetesSerialization YAML = new KubernetesSerialization();
  public static final String UID = "1b4e28ba-2fa1-11d2-883f-0016d3cca427";
  public static final String JCASC = "jenkins:\n  systemMessage: hello\n";
  public static final String PROFILE = """
      apiVersion: varroa.dev/v1alpha1
      kind: JenkinsVersionProfile
      metadata: {name: lts}
      spec:
        jenkinsVersion: "2.555.2"
        image: jenkins/jenkins:2.555.2-lts-jdk21
        plugins:
          - {id: configuration-as-code, version: "2006.v001a_2ca_6b_574"}
          - {id: git, version: "5.8.0"}
      """;

  private RenderFixtures() {}

  public static <T extends HasMetadata> T object(Class<T> type, String yaml) {
    return YAML.unmarshal(yaml, type);
  }

  public static Controller controller(String specYaml) {
    return controller("team-a", specYaml);
  }

  public static Controller controller(String name, String specYaml) {
    Controller controller = object(Controller.class, """
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: %s, namespace: ci, uid: %s, labels: {team: a}}
        spec:
        %s
        """.formatted(name, UID, specYaml.indent(2)));
    if (controller.getSpec() == null) {
      controller.setSpec(new dev.varroa.api.v1alpha1.ControllerSpec());
    }
    return controller;
  }

  public static ControllerClass controllerClass(String specYaml) {
    return object(ControllerClass.class, """
        apiVersion: varroa.dev/v1alpha1
        kind: ControllerClass
        metadata: {name: production}
        spec:
        %s
        """.formatted(specYaml.indent(2)));
  }

  public static ProvisioningDefaults defaults(String specYaml) {
    return object(ProvisioningDefaults.class, """
        apiVersion: varroa.dev/v1alpha1
        kind: ProvisioningDefaults
        metadata: {name: default}
        spec:
        %s
        """.formatted(specYaml.indent(2)));
  }

  public static JenkinsVersionProfile profile() {
    return object(JenkinsVersionProfile.class, PROFILE);
  }

  public static JenkinsVersionProfile profileWithGit(String version) {
    return object(JenkinsVersionProfile.class, PROFILE.replace("\"5.8.0\"", "\"" + version + "\""));
  }

  public static PodTemplate podTemplate(String name, String specYaml) {
    return object(PodTemplate.class, """
        apiVersion: varroa.dev/v1alpha1
        kind: PodTemplate
        metadata: {name: %s, namespace: ci}
        spec:
        %s
        """.formatted(name, specYaml.indent(2)));
  }

  public static UpdateCenter updateCenter() {
    return object(UpdateCenter.class, """
        apiVersion: varroa.dev/v1alpha1
        kind: UpdateCenter
        metadata: {name: default}
        spec:
          url: https://uc.example.com/update-center.json
          pluginDownloadURL: https://uc.example.com/download/plugins
        """);
  }

  /** A managed UpdateCenter as its reconciler left it: URLs, the CA and what the running service holds. */
  public static UpdateCenter managedUpdateCenter(String... available) {
    UpdateCenter uc = object(UpdateCenter.class, """
        apiVersion: varroa.dev/v1alpha1
        kind: UpdateCenter
        metadata: {name: default}
        spec:
          managed: {storage: {size: 20Gi}}
        status:
          url: http://varroa-uc-default.varroa-system.svc/update-center.json
          pluginDownloadURL: http://varroa-uc-default.varroa-system.svc/download/plugins
          pluginVersionsURL: http://varroa-uc-default.varroa-system.svc/plugin-versions.json
          signingCA: "-----BEGIN CERTIFICATE-----\\nMIIB\\n-----END CERTIFICATE-----\\n"
        """);
    uc.getStatus().availablePlugins = List.of(available);
    return uc;
  }

  public static RenderedBundle bundle(String jcasc, JenkinsVersionProfile profile) {
    BundleFiles files = BundleFiles.ofText(Map.of(
        "jcasc/00-team.yaml", jcasc,
        "plugins.yaml", "plugins:\n  - id: configuration-as-code\n  - id: git\n"));
    ResolvedInput input = new ResolvedInput(new InputRef(0, "git", "https://git.example.com/b.git", null,
        Map.of("branch", "main"), ""), "main@sha1:" + "a".repeat(40), files);
    try {
      return new BundleRenderer().render(new RenderRequest("team-a", List.of(input),
          VersionProfileConversion.of(profile), Set.of("GITHUB_TOKEN"), JenkinsEnvironment.VARIABLES));
    } catch (BundleException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  public static ResolvedController resolved(Controller controller) {
    ControllerSettingsResolver.Resolution resolution =
        ControllerSettingsResolver.resolve(controller, Optional.empty(), Optional.empty());
    if (!resolution.ok()) {
      throw new AssertionError(resolution.problems());
    }
    return resolution.controller();
  }

  public static RenderInput input(String controllerSpec) {
    return input(resolved(controller(controllerSpec)), JCASC, profile(), Optional.empty(), List.of());
  }

  public static RenderInput input(ResolvedController controller, String jcasc, JenkinsVersionProfile profile,
      Optional<UpdateCenter> updateCenter, List<PodTemplate> podTemplates) {
    return new RenderInput(controller, profile, bundle(jcasc, profile), updateCenter, podTemplates);
  }
}
