package dev.varroa.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.Controller;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ControllerUpdateFilterTest {
  private final ControllerUpdateFilter filter = new ControllerUpdateFilter();

  private static Controller controller(long generation, Map<String, String> annotations) {
    Controller controller = new Controller();
    controller.getMetadata().setGeneration(generation);
    controller.getMetadata().setAnnotations(annotations);
    return controller;
  }

  @Test
  void aConfirmationAnnotationStartsAPassThoughTheGenerationStays() {
    assertThat(filter.accept(controller(3, Map.of("varroa.dev/confirm-home-move", "fast")), controller(3, Map.of())))
        .isTrue();
  }

  @Test
  void aStatusWriteOrAnotherToolsAnnotationDoesNot() {
    assertThat(filter.accept(controller(3, Map.of("argocd.argoproj.io/tracking-id", "x")), controller(3, Map.of())))
        .isFalse();
  }

  @Test
  void aNewGenerationDoes() {
    assertThat(filter.accept(controller(4, Map.of()), controller(3, Map.of()))).isTrue();
  }
}
