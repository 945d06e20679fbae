package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Observed state of a Controller; see docs/controllers.md for how to read it. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class ControllerStatus extends ConditionedStatus {
  /** Where the controller is in its lifecycle. */
  public enum Phase {
    Pending,
    Provisioning,
    Running,
    Connected,
    Stopped,
    Hibernated,
    Failed
  }

  @JsonPropertyDescription("Lifecycle phase: Pending, Provisioning, Running, Connected, Stopped, Hibernated or Failed.")
  public Phase phase;

  @JsonPropertyDescription(
      "The highest-precedence attention signal, empty when none: Failed, Blocked, Boot failed, Plugin roll failed, Apply failed, Mite unreachable.")
  public String attention;

  @JsonPropertyDescription("Name of the ComposedBundle in force (varroa-starter when none is referenced).")
  public String bundle;

  @JsonPropertyDescription("Advances on every reconcile pass that completes without error (RFC 3339).")
  public String lastReconciledAt;

  @JsonPropertyDescription("The mite's control channel as the gateways report it.")
  public MiteStatus miteStatus;

  @JsonPropertyDescription("Outcome of the last desired state the mite applied.")
  public ApplyResult lastApplyResult;

  @JsonPropertyDescription("Name of the StatefulSet: <name>-<uid8>, with a c- prefix before a leading digit.")
  public String statefulSetName;

  @JsonPropertyDescription("URL of the Jenkins web UI.")
  public String url;

  @JsonPropertyDescription("Where JENKINS_HOME lives; a restore or a storage move under way.")
  public HomeStatus home;

  @JsonPropertyDescription("Backups of JENKINS_HOME: the last successful one, the next, failures.")
  public BackupStatus backup;

  @JsonPropertyDescription("The inactivity policy: when the controller was parked and what woke it.")
  public HibernationStatus hibernation;

  @JsonPropertyDescription("For a cell: the CellPool that owns it and the Teams it hosts.")
  public CellAssignment cell;

  /** What the gateways last reported about the mite stream. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class MiteStatus {
    @JsonPropertyDescription("True while a mite stream is open at a gateway.")
    public Boolean connected;

    @JsonPropertyDescription("Gateway replica holding the stream.")
    public String gateway;

    @JsonPropertyDescription("When the current stream opened (RFC 3339).")
    public String connectedAt;

    @JsonPropertyDescription("Version of the mite holding the stream.")
    public String miteVersion;

    @JsonPropertyDescription("Jenkins version the mite observed (X-Jenkins).")
    public String jenkinsVersion;

    @JsonPropertyDescription("When the mite's client certificate expires (RFC 3339).")
    public String certificateNotAfter;
  }

  /** The result of applying one desired state. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class ApplyResult {
    @JsonPropertyDescription("Whether Jenkins accepted the configuration.")
    public Boolean succeeded;

    @JsonPropertyDescription("Jenkins' own message when it did not.")
    public String message;

    @JsonPropertyDescription("Digest of the rendered bundle that was applied (sha256:...).")
    public String bundleDigest;

    @JsonPropertyDescription("When the result arrived (RFC 3339).")
    public String appliedAt;

    @JsonPropertyDescription("The varroa.dev/reapply value that asked for this push; absent when a change of the"
        + " desired state did.")
    public String trigger;
  }
}
