package dev.varroa.operator.render;

import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleFiles;
import dev.varroa.bundle.InputRef;
import dev.varroa.bundle.JenkinsEnvironment;
import dev.varroa.bundle.RenderRequest;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.compose.VersionProfileConversion;
import dev.varroa.bundle.render.BundleRenderer;
import dev.varroa.bundle.render.RenderedBundle;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Teams, profiles and bundles for the cell renderers' tests. */
public final class CellFixtures {
  /** A profile that lists every plugin a cell needs. */
  public static final String CELL_PROFILE = """
      apiVersion: varroa.dev/v1alpha1
      kind: JenkinsVersionProfile
      metadata: {name: cells}
      spec:
        jenkinsVersion: "2.555.2"
        image: jenkins/jenkins:2.555.2-lts-jdk21
        plugins:
          - {id: cloudbees-folder, version: "6.1073.va_7888eb_dd514"}
          - {id: configuration-as-code, version: "2006.v001a_2ca_6b_574"}
          - {id: credentials, version: "1415.v831096eb_5534"}
          - {id: git, version: "5.8.0"}
          - {id: job-dsl, version: "1.93"}
          - {id: matrix-auth, version: "3.2.6"}
          - {id: plain-credentials, version: "195.vb_906e9073dee"}
          - {id: ssh-credentials, version: "355.v9b_e5b_cde5003"}
          - {id: workflow-cps, version: "4106.v7a_8a_8176d450"}
          - {id: workflow-job, version: "1520.v56d65e3b_4566"}
      """;

  private CellFixtures() {}

  public static Team team(String name, String specYaml) {
    return RenderFixtures.object(Team.class, """
        apiVersion: varroa.dev/v1alpha1
        kind: Team
        metadata: {name: %s, namespace: ci}
        spec:
          pool: builds
        %s
        """.formatted(name, specYaml.indent(2)));
  }

  public static JenkinsVersionProfile cellProfile() {
    return RenderFixtures.object(JenkinsVersionProfile.class, CELL_PROFILE);
  }

  /** A bundle of one input whose plugins.yaml is the given text. */
  public static RenderedBundle bundle(JenkinsVersionProfile profile, String pluginsYaml) {
    BundleFiles files = BundleFiles.ofText(Map.of("jcasc/00-team.yaml", RenderFixtures.JCASC,
        "plugins.yaml", pluginsYaml));
    ResolvedInput input = new ResolvedInput(new InputRef(0, "git", "https://git.example.com/b.git", null,
        Map.of("branch", "main"), ""), "main@sha1:" + "a".repeat(40), files);
    try {
      return new BundleRenderer().render(new RenderRequest("team-a", List.of(input),
          VersionProfileConversion.of(profile), Set.of(), JenkinsEnvironment.VARIABLES));
    } catch (BundleException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  /** A cell hosting the Teams, with the plugin text of the bundle as it is. */
  public static CellLayer layer(List<Team> teams, Map<String, List<dev.varroa.api.v1alpha1.Subject>> callers) {
    return new CellLayer(teams, callers, "git:5.8.0\n", Optional.empty());
  }
}
