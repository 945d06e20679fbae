package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;

/** Desired state of one Jenkins controller. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ControllerSpec extends ControllerSettings {
  public enum PowerState {
    Running,
    Stopped
  }

  @JsonPropertyDescription("ControllerClass (cluster-scoped) whose settings sit between ProvisioningDefaults and this spec.")
  public ObjectRef classRef;

  @Default("Running")
  @JsonPropertyDescription("Running, or Stopped to scale the StatefulSet to zero (phase Stopped). Data is kept.")
  public PowerState powerState;

  @JsonPropertyDescription("Build claims: spec.buildClaims.gate holds queued builds until the ledger grants them.")
  public BuildClaimsSpec buildClaims;

  @JsonPropertyDescription("A VolumeSnapshot that JENKINS_HOME starts from, restored before Jenkins starts.")
  public RestoreSpec restore;

  @JsonPropertyDescription("Written by the CellPool that owns a cell Controller: its pool and the Teams it hosts."
      + " Not for people to set.")
  public CellAssignment cell;
}
