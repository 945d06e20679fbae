package dev.varroa.operator.render.resolve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.api.v1alpha1.UpdateCenterStatus;
import dev.varroa.bundle.render.RenderedBundle;
import dev.varroa.operator.render.RenderFixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A lock against what a managed update center holds: the block message names plugin, version and fix. */
class UpdateCenterCoverageTest {
  private static final RenderedBundle BUNDLE = RenderFixtures.bundle(RenderFixtures.JCASC, RenderFixtures.profile());

  @Test
  void aLockedPluginTheUpdateCenterLacksIsNamedWithItsVersionReasonAndFix() {
    UpdateCenter uc = RenderFixtures.managedUpdateCenter("configuration-as-code:2006.v001a_2ca_6b_574");
    uc.getStatus().missing = List.of(new UpdateCenterStatus.MissingPlugin("git", "5.8.0", "not held and no upstream"));

    assertThat(UpdateCenterCoverage.lacking(uc, "ComposedBundle team-a", BUNDLE)).hasValueSatisfying(message ->
        assertThat(message).contains("UpdateCenter default does not hold plugin git 5.8.0 (not held and no upstream)")
            .contains("ComposedBundle team-a").contains("fix:")
            .contains("varroactl updatecenter export --plugin git:5.8.0").contains("varroactl updatecenter import")
            .contains("spec.managed.upstream.url"));
  }

  @Test
  void passesWhenEveryLockedVersionIsHeld() {
    UpdateCenter uc = RenderFixtures.managedUpdateCenter("configuration-as-code:2006.v001a_2ca_6b_574", "git:5.8.0");

    assertThat(UpdateCenterCoverage.lacking(uc, "ComposedBundle team-a", BUNDLE)).isEmpty();
  }

  @Test
  void anotherVersionThanTheLockedOneDoesNotCount() {
    UpdateCenter uc = RenderFixtures.managedUpdateCenter("configuration-as-code:2006.v001a_2ca_6b_574", "git:5.9.0");

    assertThat(UpdateCenterCoverage.lacking(uc, "ComposedBundle team-a", BUNDLE)).hasValueSatisfying(message ->
        assertThat(message).contains("git 5.8.0"));
  }

  @Test
  void anUpdateCenterThatHasNotReportedYetBlocksWithWhyAndAnExternalOneNever() {
    UpdateCenter silent = RenderFixtures.managedUpdateCenter();
    silent.getStatus().availablePlugins = null;

    assertThat(UpdateCenterCoverage.lacking(silent, "ComposedBundle team-a", BUNDLE)).hasValueSatisfying(message ->
        assertThat(message).contains("has not reported which plugins it holds yet").contains("varroa-uc-default"));
    assertThat(UpdateCenterCoverage.lacking(RenderFixtures.updateCenter(), "ComposedBundle team-a", BUNDLE)).isEmpty();
  }
}
