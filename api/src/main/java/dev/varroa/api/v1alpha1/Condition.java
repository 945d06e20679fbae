package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/**
 * One status condition, in the Kubernetes metav1.Condition shape that kstatus, Argo CD and Flux
 * read: the GitOps types Ready, Reconciling and Stalled, and Varroa's own (MiteConnected,
 * MiteStreamDegraded, ReconcileBlocked, JenkinsBootFailed, PluginRollFailed).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Condition {
  public static final String READY = "Ready";
  public static final String RECONCILING = "Reconciling";
  public static final String STALLED = "Stalled";
  public static final String MITE_CONNECTED = "MiteConnected";
  public static final String MITE_STREAM_DEGRADED = "MiteStreamDegraded";
  public static final String RECONCILE_BLOCKED = "ReconcileBlocked";
  public static final String JENKINS_BOOT_FAILED = "JenkinsBootFailed";
  public static final String PLUGIN_ROLL_FAILED = "PluginRollFailed";
  public static final String BACKUP_FAILED = "BackupFailed";
  public static final String RESTORE_FAILED = "RestoreFailed";
  public static final String HOME_MOVE_FAILED = "HomeMoveFailed";
  /** True while the last one-shot command queued for the mite (varroa_commands) did not succeed. */
  public static final String QUEUED_COMMAND_FAILED = "QueuedCommandFailed";
  public static final String REASON_STREAM_LOST = "StreamLost";

  public enum Status {
    True,
    False,
    Unknown
  }

  @Required
  @JsonPropertyDescription("Condition type, e.g. Ready, Reconciling, Stalled, MiteConnected, ReconcileBlocked.")
  public String type;

  @Required
  @JsonPropertyDescription("True, False or Unknown.")
  public Status status;

  @JsonPropertyDescription("One-word CamelCase reason for the last transition, e.g. StreamLost.")
  public String reason;

  @JsonPropertyDescription("Human-readable detail; for a blocking condition it names the fix.")
  public String message;

  @JsonPropertyDescription("metadata.generation of the object this condition was computed from.")
  public Long observedGeneration;

  @JsonPropertyDescription("When the status last changed (RFC 3339).")
  public String lastTransitionTime;

  public Condition() {}

  public Condition(String type, Status status, String reason, String message) {
    this.type = type;
    this.status = status;
    this.reason = reason;
    this.message = message;
  }
}
