package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;

/** What the backups of JENKINS_HOME did and will do next. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class BackupStatus {
  @JsonPropertyDescription("VolumeSnapshot of the last backup that became readyToUse.")
  public String lastSuccessfulSnapshot;

  @JsonPropertyDescription("When the last successful backup was taken (RFC 3339).")
  public String lastSuccessfulAt;

  @JsonPropertyDescription("When the next scheduled backup starts (RFC 3339); empty without a schedule.")
  public String nextScheduledAt;

  @JsonPropertyDescription("The backup under way, if any.")
  public BackupRun inProgress;

  @JsonPropertyDescription("The last value of the varroa.dev/backup-now annotation that was acted on.")
  public String lastOnDemandRequest;

  @JsonPropertyDescription("The last failed backup, with the CSI driver's message; cleared by the next success.")
  public BackupFailure lastFailure;

  @JsonPropertyDescription("Successful snapshots kept, oldest first.")
  public List<String> snapshots = new ArrayList<>();

  /** One backup under way. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class BackupRun {
    @JsonPropertyDescription("Name of the VolumeSnapshot this backup creates.")
    public String snapshot;

    @JsonPropertyDescription("QuietingDown (waiting for running builds), Snapshotting or WaitingReady.")
    public String step;

    @JsonPropertyDescription("schedule or on-demand.")
    public String trigger;

    @JsonPropertyDescription("When the backup started (RFC 3339).")
    public String startedAt;

    @JsonPropertyDescription("Builds that were still running when the snapshot was taken (the quiet-down wait ran out).")
    public Integer runningBuildsAtSnapshot;

    @JsonPropertyDescription(
        "True when this backup put Jenkins in quiet-down (and so cancels it); false when Jenkins was already quieting"
            + " down, or the mite was not connected.")
    public Boolean quietedByBackup;
  }

  /** A backup that did not produce a usable snapshot. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class BackupFailure {
    public String snapshot;
    public String at;
    @JsonPropertyDescription("Why, with the CSI driver's own message when it gave one.")
    public String message;
  }
}
