package dev.varroa.operator.render.resolve;

import dev.varroa.api.v1alpha1.PodTemplate;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** Which PodTemplates a Controller gets: those of its namespace whose controllerSelector matches its labels. */
public final class PodTemplateSelection {
  private PodTemplateSelection() {}

  /** Matching templates by name, so the rendered cloud is stable; an empty or absent selector matches all. */
  public static List<PodTemplate> matching(List<PodTemplate> templates, String namespace, Map<String, String> labels) {
    return templates.stream()
        .filter(t -> t.getSpec() != null)
        .filter(t -> t.getMetadata().getNamespace() == null || t.getMetadata().getNamespace().equals(namespace))
        .filter(t -> matches(t.getSpec().controllerSelector, labels))
        .sorted(Comparator.comparing(t -> t.getMetadata().getName()))
        .toList();
  }

  /** Kubernetes label selector semantics: matchLabels and every matchExpression must hold. */
  public static boolean matches(LabelSelector selector, Map<String, String> labels) {
    if (selector == null) {
      return true;
    }
    if (selector.getMatchLabels() != null
        && !selector.getMatchLabels().entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())))) {
      return false;
    }
    return selector.getMatchExpressions() == null
        || selector.getMatchExpressions().stream().allMatch(r -> matches(r, labels));
  }

  private static boolean matches(LabelSelectorRequirement requirement, Map<String, String> labels) {
    String value = labels.get(requirement.getKey());
    List<String> values = requirement.getValues() == null ? List.of() : requirement.getValues();
    return switch (requirement.getOperator()) {
      case "In" -> value != null && values.contains(value);
      case "NotIn" -> value == null || !values.contains(value);
      case "Exists" -> value != null;
      case "DoesNotExist" -> value == null;
      default -> false;
    };
  }
}
