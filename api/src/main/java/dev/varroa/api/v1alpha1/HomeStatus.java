package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;

/** Where JENKINS_HOME lives, and a restore or storage move under way. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class HomeStatus {
  @JsonPropertyDescription("The claim that holds JENKINS_HOME: jenkins-home-<statefulset>-0.")
  public String claimName;

  @JsonPropertyDescription("The PersistentVolume bound to it.")
  public String volumeName;

  @JsonPropertyDescription("Storage class of that volume.")
  public String storageClassName;

  @JsonPropertyDescription("The VolumeSnapshot JENKINS_HOME was last restored from (spec.restore.volumeSnapshotName).")
  public String restoredFrom;

  @JsonPropertyDescription("Earlier homes kept with reclaimPolicy Retain after a restore or a move; delete them when satisfied.")
  public List<RetainedVolume> retainedVolumes = new ArrayList<>();

  @JsonPropertyDescription("A restore under way.")
  public HomeOperation restore;

  @JsonPropertyDescription("A move to another storage class under way.")
  public HomeOperation move;

  /** A PersistentVolume that held JENKINS_HOME before. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class RetainedVolume {
    public String volumeName;
    @JsonPropertyDescription("Why it was kept, e.g. replaced by a restore from backup-x.")
    public String reason;
    public String since;
  }

  /** One long operation on JENKINS_HOME, step by step. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class HomeOperation {
    @JsonPropertyDescription("The current step, e.g. Draining, Stopping, Claiming, Copying, Verifying, Swapping, Starting.")
    public String step;

    @JsonPropertyDescription("Step number of the current step, from 1.")
    public Integer stepNumber;

    @JsonPropertyDescription("How many steps the operation has.")
    public Integer steps;

    @JsonPropertyDescription("What the step has done so far, e.g. copied 10234 files, 3.2 GiB.")
    public String progress;

    @JsonPropertyDescription("Storage class or snapshot the home comes from.")
    public String from;

    @JsonPropertyDescription("Storage class or claim the home goes to.")
    public String to;

    @JsonPropertyDescription("rsync (a copy Job) or snapshot (a CSI snapshot restored into the target class).")
    public String method;

    @JsonPropertyDescription("The claim that receives the new home.")
    public String targetClaim;

    @JsonPropertyDescription("The copy Job, when the method is rsync.")
    public String job;

    @JsonPropertyDescription("When the operation started (RFC 3339).")
    public String startedAt;

    @JsonPropertyDescription("How to abort it while that is still possible.")
    public String abort;
  }
}
