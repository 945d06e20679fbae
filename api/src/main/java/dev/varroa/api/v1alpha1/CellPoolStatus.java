package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;
import java.util.List;

/** The pool's cells, the Teams each hosts, and whether every Team has a place. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CellPoolStatus extends ConditionedStatus {
  @StatusReplicas
  @JsonPropertyDescription("How many cell Controllers exist.")
  public Integer replicas;

  @JsonPropertyDescription("How many cells are Connected.")
  public Integer readyReplicas;

  @LabelSelector
  @JsonPropertyDescription("The label selector of the pool's cells (for the scale subresource).")
  public String selector;

  @JsonPropertyDescription("How many Teams have a cell.")
  public Integer placedTeams;

  @JsonPropertyDescription("Teams that want this pool and have no cell yet (every cell is full): name, or"
      + " namespace/name for a Team of another namespace.")
  public List<String> unplacedTeams;

  @JsonPropertyDescription("One entry per cell, in ordinal order.")
  public List<Cell> cells;

  /** One cell: its Controller, its phase and the Teams it hosts. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Cell {
    @JsonPropertyDescription("The cell Controller's name: <pool>-<ordinal>.")
    public String name;

    @JsonPropertyDescription("The cell Controller's phase.")
    public String phase;

    @JsonPropertyDescription("The Teams this cell hosts: name, or namespace/name for a Team of another namespace.")
    public List<String> teams;

    @JsonPropertyDescription("True while the pool is moving this cell's Teams away before deleting it.")
    public Boolean draining;

    @JsonPropertyDescription("Since when the cell has not been Connected (RFC 3339); absent while it is.")
    public String unreadySince;

    @JsonPropertyDescription("When the pool last rolled this cell for staying unready past its grace (RFC 3339).")
    public String lastRolledAt;
  }
}
