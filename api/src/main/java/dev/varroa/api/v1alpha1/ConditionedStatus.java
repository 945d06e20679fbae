package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Status fields every Varroa kind shares: conditions and the generation they describe. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class ConditionedStatus {
  @JsonPropertyDescription("metadata.generation the operator last acted on.")
  public Long observedGeneration;

  @JsonPropertyDescription("Ready, Reconciling and Stalled for GitOps tools, plus the kind's own conditions.")
  public List<Condition> conditions = new ArrayList<>();

  public Optional<Condition> condition(String type) {
    return conditions.stream().filter(c -> type.equals(c.type)).findFirst();
  }
}
