package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;

/** Observed state of a CatalogSource. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class CatalogSourceStatus extends ConditionedStatus {
  @JsonPropertyDescription("The revision indexed last.")
  public Artifact artifact;

  @JsonPropertyDescription("Names of the items found under items/.")
  public List<String> items;
}
