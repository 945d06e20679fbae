package dev.varroa.operator.controller;

import dev.varroa.api.v1alpha1.Controller;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter;
import java.util.Objects;

/**
 * Which updates of a Controller start a pass: its spec (a new generation), its annotations (the one-off requests of
 * ControllerAnnotations, such as varroa.dev/wake), its labels (PodTemplate controllerSelectors match them), its
 * finalizers and its deletion. A status-only update, such as the reconciler's own status patch, starts none.
 */
public final class ControllerUpdateFilter implements OnUpdateFilter<Controller> {
  @Override
  public boolean accept(Controller updated, Controller old) {
    if (old == null) {
      return true;
    }
    var now = updated.getMetadata();
    var before = old.getMetadata();
    return !Objects.equals(now.getGeneration(), before.getGeneration())
        || !Objects.equals(now.getAnnotations(), before.getAnnotations())
        || !Objects.equals(now.getLabels(), before.getLabels())
        || !Objects.equals(now.getFinalizers(), before.getFinalizers())
        || !Objects.equals(now.getDeletionTimestamp(), before.getDeletionTimestamp());
  }
}
