package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;

/** Backups of JENKINS_HOME as CSI VolumeSnapshots (snapshot.storage.k8s.io/v1); see docs/backups.md. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BackupSpec {
  /** How many successful snapshots are kept when keep is omitted. */
  public static final int DEFAULT_KEEP = 7;
  /** How long a backup waits in quiet-down for running builds when quietDownTimeoutSeconds is omitted. */
  public static final int DEFAULT_QUIET_DOWN_TIMEOUT_SECONDS = 300;

  @Size(max = 128)
  @JsonPropertyDescription(
      "Cron schedule of scheduled backups, five fields in UTC (minute hour day-of-month month day-of-week), e.g."
          + " \"30 2 * * *\"; @hourly, @daily and @weekly are accepted. Omitted: no scheduled backups (the"
          + " varroa.dev/backup-now annotation still takes one).")
  public String schedule;

  @Min(1)
  @Max(1000)
  @Default("7")
  @JsonPropertyDescription("How many successful snapshots to keep; older ones are deleted, never one a restore uses.")
  public Integer keep;

  @Size(max = 253)
  @Pattern(Names.DNS1123_SUBDOMAIN)
  @JsonPropertyDescription("VolumeSnapshotClass of the snapshots; omitted: the CSI driver's default class.")
  public String volumeSnapshotClassName;

  @Min(0)
  @Max(86400)
  @Default("300")
  @JsonPropertyDescription(
      "Seconds a backup waits in quiet-down for running builds before it snapshots anyway; quiet-down is cancelled"
          + " after the snapshot is taken.")
  public Integer quietDownTimeoutSeconds;
}
