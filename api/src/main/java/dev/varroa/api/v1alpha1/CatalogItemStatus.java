package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Observed state of a CatalogItem. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class CatalogItemStatus extends ConditionedStatus {
  @JsonPropertyDescription("Revision of the source this item was indexed at; an input using the item records it.")
  public String revision;
}
