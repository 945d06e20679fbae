package dev.varroa.operator.controller;

import dev.varroa.api.v1alpha1.Controller;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Which updates of a Controller start a pass: a new generation (spec), a changed varroa.dev/ annotation (the one-off
 * actions of ControllerAnnotations, such as confirming a home move, a backup now or a wake, change no generation),
 * its labels (PodTemplate controllerSelectors match them), finalizers and deletion. Status writes, the operator's own
 * included, do not.
 */
public final class ControllerUpdateFilter implements OnUpdateFilter<Controller> {
  static final String ANNOTATION_PREFIX = "varroa.dev/";

  @Override
  public boolean accept(Controller updated, Controller old) {
    if (old == null) {
      return true;
    }
    Long generation = updated.getMetadata().getGeneration();
    Long before = old.getMetadata().getGeneration();
    if (generation == null || before == null || generation > before) {
      return true;
    }
    return !Objects.equals(ours(updated.getMetadata().getAnnotations()), ours(old.getMetadata().getAnnotations()))
        || !Objects.equals(updated.getMetadata().getLabels(), old.getMetadata().getLabels())
        || !Objects.equals(updated.getMetadata().getFinalizers(), old.getMetadata().getFinalizers())
        || updated.isMarkedForDeletion() != old.isMarkedForDeletion();
  }

  private static Map<String, String> ours(Map<String, String> annotations) {
    Map<String, String> ours = new TreeMap<>();
    if (annotations != null) {
      annotations.forEach((key, value) -> {
        if (key.startsWith(ANNOTATION_PREFIX)) {
          ours.put(key, value);
        }
      });
    }
    return ours;
  }
}
