package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;

/** A Controller that is a cell: the CellPool that owns it and the Teams it hosts. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CellAssignment {
  @JsonPropertyDescription("The CellPool (same namespace) that owns this cell.")
  public String pool;

  @JsonPropertyDescription("The Teams the cell hosts: a name for a Team of the pool's namespace, namespace/name for"
      + " one of another; a folder with its pipelines each.")
  public List<String> teams;

  @JsonPropertyDescription("True while the pool scales this cell away: its teams already run on other cells, its jobs"
      + " stay (without triggers) until the builds queued or running here have finished, then the cell is deleted.")
  public Boolean draining;

  public CellAssignment() {}

  public CellAssignment(String pool, List<String> teams, boolean draining) {
    this.pool = pool;
    this.teams = List.copyOf(teams);
    this.draining = draining ? Boolean.TRUE : null;
  }
}
