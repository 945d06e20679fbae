package dev.varroa.operator.brood;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.List;
import java.util.Map;

/** A Kubernetes label selector read as the API server reads it (matchLabels and matchExpressions). Pure. */
final class LabelSelectorMatch {
  private LabelSelectorMatch() {}

  static boolean matches(LabelSelector selector, Map<String, String> labels) {
    if (selector == null) {
      return true;
    }
    if (selector.getMatchLabels() != null) {
      for (Map.Entry<String, String> wanted : selector.getMatchLabels().entrySet()) {
        if (!wanted.getValue().equals(labels.get(wanted.getKey()))) {
          return false;
        }
      }
    }
    if (selector.getMatchExpressions() != null) {
      for (LabelSelectorRequirement requirement : selector.getMatchExpressions()) {
        if (!matches(requirement, labels)) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean matches(LabelSelectorRequirement requirement, Map<String, String> labels) {
    String value = labels.get(requirement.getKey());
    List<String> values = requirement.getValues() == null ? List.of() : requirement.getValues();
    return switch (requirement.getOperator()) {
      case "In" -> value != null && values.contains(value);
      case "NotIn" -> value == null || !values.contains(value);
      case "Exists" -> value != null;
      case "DoesNotExist" -> value == null;
      default -> throw new InvalidSelection("spec.targets.selector.matchExpressions: operator \""
          + requirement.getOperator() + "\" is not one of In, NotIn, Exists, DoesNotExist");
    };
  }
}
