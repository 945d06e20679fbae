package dev.varroa.operator.brood;

import java.util.Map;

/** What the selection reads of a Controller, on any cluster: where it is, its phase and its labels. */
public record ControllerFacts(String namespace, String name, String phase, Map<String, String> labels) {
  public ControllerFacts {
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    phase = phase == null ? "" : phase;
  }
}
