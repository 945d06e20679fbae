package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Where the team is placed. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TeamStatus extends ConditionedStatus {
  public enum Phase {
    /** No cell yet: the pool is missing, has no cells, or every cell is full. */
    Pending,
    /** A cell hosts the team. */
    Placed
  }

  @JsonPropertyDescription("Pending or Placed.")
  public Phase phase;

  @JsonPropertyDescription("The cell Controller that hosts the team.")
  public String cell;

  @JsonPropertyDescription("The cell's namespace: its pool's.")
  public String cellNamespace;

  @JsonPropertyDescription("Since when the team is on this cell (RFC 3339).")
  public String placedSince;

  @JsonPropertyDescription("Why the team is Pending, with the fix.")
  public String message;
}
