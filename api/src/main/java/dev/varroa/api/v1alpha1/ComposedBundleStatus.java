package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;

/** Observed state of a ComposedBundle: the render in force and where each input stood. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class ComposedBundleStatus extends ConditionedStatus {
  @JsonPropertyDescription("The render in force: digest of the rendered state and the combined revision.")
  public Artifact artifact;

  @JsonPropertyDescription("Revision of each input, in input order.")
  public List<InputRevision> inputs;

  @JsonPropertyDescription("The last reconcile.fluxcd.io/requestedAt annotation value handled.")
  public String lastHandledReconcileAt;

  /** Where one input stood at the last render. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class InputRevision {
    @JsonPropertyDescription("Position of the input, from 0.")
    public Integer index;

    @JsonPropertyDescription("git, oci, catalogItem or fluxSource.")
    public String kind;

    @JsonPropertyDescription("Revision of the input as Flux writes it.")
    public String revision;
  }
}
