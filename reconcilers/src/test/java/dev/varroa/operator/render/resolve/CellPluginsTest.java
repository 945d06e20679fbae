package dev.varroa.operator.render.resolve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.bundle.render.RenderedBundle;
import dev.varroa.operator.render.CellFixtures;
import dev.varroa.operator.render.RenderFixtures;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CellPluginsTest {
  private static final String PLUGINS = "plugins:\n  - id: configuration-as-code\n  - id: git\n";

  @Test
  void addsEveryPluginTheGeneratedLayerNeedsAtTheProfilesVersion() {
    JenkinsVersionProfile profile = CellFixtures.cellProfile();
    CellPlugins.Resolved resolved = resolved(CellPlugins.resolve(CellFixtures.bundle(profile, PLUGINS),
        "ComposedBundle team-a", profile, Optional.empty()));

    assertThat(resolved.pluginsText().lines()).contains("job-dsl:1.93", "matrix-auth:3.2.6", "cloudbees-folder:"
        + "6.1073.va_7888eb_dd514", "git:5.8.0", "configuration-as-code:2006.v001a_2ca_6b_574").isSorted();
    assertThat(resolved.ignoredPin()).isEmpty();
  }

  @Test
  void ignoresAnotherLayersPinOnJobDslAndSaysWhichLayerPinnedIt() {
    // the profile lists no job-dsl: the bundle's pin would win in any other Controller
    JenkinsVersionProfile profile = RenderFixtures.object(JenkinsVersionProfile.class,
        CellFixtures.CELL_PROFILE.replace("    - {id: job-dsl, version: \"1.93\"}\n", ""));
    RenderedBundle pinned = CellFixtures.bundle(profile, PLUGINS + "  - {id: job-dsl, version: \"1.87\"}\n");
    assertThat(pinned.pluginsText()).contains("job-dsl:1.87");
    UpdateCenter managed = RenderFixtures.managedUpdateCenter("job-dsl:1.87", "job-dsl:1.91", "job-dsl:1.100");

    CellPlugins.Resolved resolved = resolved(CellPlugins.resolve(pinned, "ComposedBundle team-a", profile,
        Optional.of(managed)));

    assertThat(resolved.pluginsText().lines()).contains("job-dsl:1.100").doesNotContain("job-dsl:1.87");
    assertThat(resolved.ignoredPin()).contains("a cell ignores a pin on job-dsl: ComposedBundle team-a (its plugins)"
        + " pins job-dsl 1.87; the pool owns job-dsl and the cell uses 1.100 from UpdateCenter default");
  }

  @Test
  void keepsTheBundlesVersionOfANeededPluginOtherThanJobDsl() {
    JenkinsVersionProfile profile = RenderFixtures.object(JenkinsVersionProfile.class,
        CellFixtures.CELL_PROFILE.replace("    - {id: matrix-auth, version: \"3.2.6\"}\n", ""));
    CellPlugins.Resolved resolved = resolved(CellPlugins.resolve(CellFixtures.bundle(profile, PLUGINS
        + "  - {id: matrix-auth, version: \"3.1\"}\n"), "ComposedBundle team-a", profile, Optional.empty()));

    assertThat(resolved.pluginsText().lines()).contains("matrix-auth:3.1");
    assertThat(resolved.ignoredPin()).isEmpty();
  }

  @Test
  void refusesANeededPluginNoProfileOrUpdateCenterHasAVersionOf() {
    JenkinsVersionProfile profile = RenderFixtures.profile();

    CellPlugins.Outcome outcome = CellPlugins.resolve(RenderFixtures.bundle(RenderFixtures.JCASC, profile),
        "ComposedBundle team-a", profile, Optional.of(RenderFixtures.updateCenter()));

    assertThat(outcome).isInstanceOfSatisfying(CellPlugins.Refused.class, refused -> assertThat(refused.message())
        .startsWith("a cell needs plugin job-dsl (its generated layer: job-dsl, cloudbees-folder")
        .contains("which JenkinsVersionProfile lts does not list; fix: add job-dsl to JenkinsVersionProfile lts"
            + " spec.plugins"));
  }

  @Test
  void comparesVersionsPartByPart() {
    assertThat(CellPlugins.compareVersions("1.100", "1.99")).isPositive();
    assertThat(CellPlugins.compareVersions("3654.vdf58f53e2d15", "3654.vdf58f53e2d15")).isZero();
    assertThat(CellPlugins.compareVersions("2.1", "2.1.1")).isNegative();
  }

  private static CellPlugins.Resolved resolved(CellPlugins.Outcome outcome) {
    assertThat(outcome).isInstanceOf(CellPlugins.Resolved.class);
    return (CellPlugins.Resolved) outcome;
  }
}
