package dev.varroa.operator.render.resolve;

import static dev.varroa.operator.render.RenderFixtures.podTemplate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.PodTemplate;
import dev.varroa.operator.render.RenderFixtures;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodTemplateSelectionTest {
  private static final List<PodTemplate> TEMPLATES = List.of(
      podTemplate("all", "label: all\n"),
      podTemplate("empty", "label: empty\ncontrollerSelector: {}\n"),
      podTemplate("team-a", "label: a\ncontrollerSelector: {matchLabels: {team: a}}\n"),
      podTemplate("not-prod", "label: np\ncontrollerSelector: {matchExpressions: [{key: env, operator: NotIn, values: [prod]}]}\n"),
      podTemplate("prod", "label: p\ncontrollerSelector: {matchExpressions: [{key: env, operator: In, values: [prod]}]}\n"));

  private static List<String> names(Map<String, String> labels) {
    return PodTemplateSelection.matching(TEMPLATES, "ci", labels).stream().map(t -> t.getMetadata().getName()).toList();
  }

  @Test
  void selectsTemplatesByControllerLabelsWithEmptySelectorMatchingAll() {
    assertThat(names(Map.of("team", "a"))).containsExactly("all", "empty", "not-prod", "team-a");
    assertThat(names(Map.of("team", "b", "env", "prod"))).containsExactly("all", "empty", "prod");
  }

  @Test
  void ignoresTemplatesOfOtherNamespaces() {
    assertThat(PodTemplateSelection.matching(TEMPLATES, "other", Map.of())).isEmpty();
  }

  @Test
  void choosesUpdateCenterNamedDefaultAmongSeveral() {
    var other = RenderFixtures.object(dev.varroa.api.v1alpha1.UpdateCenter.class,
        "apiVersion: varroa.dev/v1alpha1\nkind: UpdateCenter\nmetadata: {name: mirror}\nspec: {url: https://m/uc.json}\n");

    assertThat(UpdateCenterSelection.choose(List.of()).updateCenter()).isEmpty();
    assertThat(UpdateCenterSelection.choose(List.of(other)).updateCenter()).contains(other);
    assertThat(UpdateCenterSelection.choose(List.of(other, RenderFixtures.updateCenter())).updateCenter()
        .map(u -> u.getMetadata().getName())).contains("default");
    assertThat(UpdateCenterSelection.choose(List.of(other, other)).problem()).isPresent();
  }
}
