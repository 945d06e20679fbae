package dev.varroa.operator.render.resolve;

import static dev.varroa.operator.render.RenderFixtures.controller;
import static dev.varroa.operator.render.RenderFixtures.controllerClass;
import static dev.varroa.operator.render.RenderFixtures.defaults;
import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.AgentsSpec;
import dev.varroa.api.v1alpha1.ObjectRef;
import dev.varroa.operator.render.resolve.ControllerSettingsResolver.Resolution;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ControllerSettingsResolverTest {
  private static final String DEFAULTS = """
      versionProfileRef: {name: lts}
      commandDeadlineSec: 600
      persistence: {size: 10Gi, storageClassName: standard}
      miteSpec: {imagePullPolicy: IfNotPresent}
      jenkins: {javaOpts: -Xmx1g, resources: {requests: {memory: 1Gi}}}
      podTemplate:
        labels: {tier: defaults, owner: platform}
        spec: {nodeSelector: {pool: general}}
      """;
  private static final String CLASS = """
      jenkins: {resources: {requests: {memory: 4Gi}}}
      persistence: {size: 100Gi}
      reconciliation: {drainTimeoutSeconds: 1800}
      podTemplate:
        labels: {tier: production}
        spec: {tolerations: [{key: dedicated, operator: Exists}]}
      """;

  @Test
  void appliesDocumentedDefaultsWhenNothingIsSet() {
    Resolution resolution = ControllerSettingsResolver.resolve(controller(""), Optional.empty(), Optional.empty());
    ResolvedController resolved = resolution.controller();

    assertThat(resolution.problems()).isEmpty();
    assertThat(resolved.persistence().size()).isEqualTo("20Gi");
    assertThat(resolved.persistence().storageClassName()).isEmpty();
    assertThat(resolved.agents().namespace()).isEqualTo("ci-jobs");
    assertThat(resolved.agents().tunnel()).isEqualTo(AgentsSpec.Tunnel.direct);
    assertThat(resolved.drainTimeoutSeconds()).isEqualTo(900);
    assertThat(resolved.commandDeadlineSeconds()).isEqualTo(1200);
    assertThat(resolved.mite().image()).isEqualTo(ControllerSettingsResolver.DEFAULT_MITE_IMAGE)
        .startsWith("ghcr.io/varroa/mite:");
    assertThat(resolved.composedBundle()).isEmpty();
    assertThat(resolved.stopped()).isFalse();
    assertThat(resolved.ingress().enabled()).isFalse();
  }

  @Test
  void resolvesDefaultsThenClassThenControllerFieldByField() {
    ResolvedController resolved = ControllerSettingsResolver.resolve(
        controller("classRef: {name: production}\njenkins: {image: example/jenkins:team}\n"),
        Optional.of(controllerClass(CLASS)), Optional.of(defaults(DEFAULTS))).controller();

    assertThat(resolved.jenkins().image()).contains("example/jenkins:team");
    assertThat(resolved.jenkins().resources().orElseThrow().getRequests().get("memory").toString()).isEqualTo("4Gi");
    assertThat(resolved.jenkins().javaOpts()).contains("-Xmx1g");
    assertThat(resolved.persistence().size()).isEqualTo("100Gi");
    assertThat(resolved.persistence().storageClassName()).contains("standard");
    assertThat(resolved.mite().imagePullPolicy()).contains("IfNotPresent");
    assertThat(resolved.drainTimeoutSeconds()).isEqualTo(1800);
    assertThat(resolved.commandDeadlineSeconds()).isEqualTo(600);
  }

  @Test
  void controllerWinsOverClassAndDefaultsForTheSameField() {
    ResolvedController resolved = ControllerSettingsResolver.resolve(
        controller("classRef: {name: production}\npersistence: {size: 5Gi}\nreconciliation: {drainTimeoutSeconds: 0}\n"),
        Optional.of(controllerClass(CLASS)), Optional.of(defaults(DEFAULTS))).controller();

    assertThat(resolved.persistence().size()).isEqualTo("5Gi");
    assertThat(resolved.persistence().storageClassName()).contains("standard");
    assertThat(resolved.drainTimeoutSeconds()).isZero();
  }

  @Test
  void mergesPodCustomisationKeyByKey() {
    ResolvedController resolved = ControllerSettingsResolver.resolve(
        controller("classRef: {name: production}\npodTemplate: {labels: {team: a}, spec: {nodeSelector: {pool: ci}}}\n"),
        Optional.of(controllerClass(CLASS)), Optional.of(defaults(DEFAULTS))).controller();

    assertThat(resolved.pod().labels()).containsEntry("tier", "production").containsEntry("owner", "platform")
        .containsEntry("team", "a");
    assertThat(resolved.pod().spec().orElseThrow().toString())
        .contains("\"nodeSelector\":{\"pool\":\"ci\"}").contains("dedicated");
  }

  @Test
  void reportsDuplicateSecretNamesWithFieldAndFix() {
    Resolution resolution = ControllerSettingsResolver.resolve(controller("""
        secrets:
          - {name: GITHUB_TOKEN, secretKeyRef: {name: gh, key: token}}
          - {name: GITHUB_TOKEN, secretKeyRef: {name: gh2, key: token}}
        """), Optional.empty(), Optional.empty());

    assertThat(resolution.ok()).isFalse();
    assertThat(resolution.problems()).singleElement().satisfies(problem -> {
      assertThat(problem.field()).isEqualTo("spec.secrets[1].name");
      assertThat(problem.format()).contains("GITHUB_TOKEN").contains("fix:");
    });
  }

  @Test
  void refusesAgentsNamespaceEqualToControllerNamespace() {
    Resolution resolution = ControllerSettingsResolver.resolve(controller("agents: {namespace: ci}\n"),
        Optional.empty(), Optional.empty());

    assertThat(resolution.problems()).extracting(SettingsProblem::field).containsExactly("spec.agents.namespace");
  }

  @Test
  void refusesAnAgentsNamespaceTheControllerNamesThatIsNeitherItsJobsNamespaceNorAllowed() {
    for (String target : java.util.List.of("kube-system", "varroa-system", "team-b-jobs")) {
      Resolution resolution = ControllerSettingsResolver.resolve(controller("agents: {namespace: " + target + "}\n"),
          Optional.empty(), Optional.of(defaults(
              "allowedAgentsNamespaces: [{controllerNamespace: other, agentsNamespaces: [" + target + "]}]\n")));

      assertThat(resolution.problems()).singleElement().satisfies(problem -> {
        assertThat(problem.field()).isEqualTo("spec.agents.namespace");
        assertThat(problem.format()).contains(target).contains("ci-jobs")
            .contains("ProvisioningDefaults default spec.allowedAgentsNamespaces for controllerNamespace ci");
      });
    }
  }

  @Test
  void acceptsAnAgentsNamespaceAnAdministratorAllowedForTheControllersNamespace() {
    Resolution resolution = ControllerSettingsResolver.resolve(controller("agents: {namespace: ci-gpu}\n"),
        Optional.empty(), Optional.of(defaults(
            "allowedAgentsNamespaces: [{controllerNamespace: ci, agentsNamespaces: [ci-builds, ci-gpu]}]\n")));

    assertThat(resolution.problems()).isEmpty();
    assertThat(resolution.controller().agents().namespace()).isEqualTo("ci-gpu");
  }

  @Test
  void acceptsAnAgentsNamespaceAControllerClassChose() {
    Resolution resolution = ControllerSettingsResolver.resolve(controller("classRef: {name: production}\n"),
        Optional.of(controllerClass("agents: {namespace: shared-agents}\n")), Optional.empty());

    assertThat(resolution.problems()).isEmpty();
    assertThat(resolution.controller().agents().namespace()).isEqualTo("shared-agents");
  }

  @Test
  void reportsClassRefWithoutTheClass() {
    Resolution resolution = ControllerSettingsResolver.resolve(controller("classRef: {name: production}\n"),
        Optional.empty(), Optional.empty());

    assertThat(resolution.problems()).extracting(SettingsProblem::field).containsExactly("spec.classRef.name");
  }

  @Test
  void choosesControllerProfileThenBundleProfileThenInheritedProfile() {
    Optional<ObjectRef> bundleProfile = Optional.of(ObjectRef.of("bundle-lts"));
    ResolvedController own = ControllerSettingsResolver.resolve(controller("versionProfileRef: {name: own}\n"),
        Optional.empty(), Optional.of(defaults(DEFAULTS))).controller();
    ResolvedController inherits = ControllerSettingsResolver.resolve(controller(""),
        Optional.empty(), Optional.of(defaults(DEFAULTS))).controller();

    assertThat(own.versionProfile(bundleProfile)).contains("own");
    assertThat(inherits.versionProfile(bundleProfile)).contains("bundle-lts");
    assertThat(inherits.versionProfile(Optional.empty())).contains("lts");
  }

  @Test
  void resolvesStoppedPowerState() {
    assertThat(ControllerSettingsResolver.resolve(controller("powerState: Stopped\n"), Optional.empty(),
        Optional.empty()).controller().stopped()).isTrue();
  }
}
