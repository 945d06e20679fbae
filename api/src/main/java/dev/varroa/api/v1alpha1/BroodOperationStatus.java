package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Where a BroodOperation stands, target by target; everything needed to resume after an operator restart. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class BroodOperationStatus extends ConditionedStatus {
  public enum Phase {
    Pending,
    Running,
    Paused,
    Succeeded,
    Failed,
    Cancelled
  }

  /** A target's phase; Unknown while its cluster does not answer. */
  public enum TargetPhase {
    Pending,
    Running,
    Paused,
    Succeeded,
    Failed,
    Unknown,
    Cancelled
  }

  @JsonPropertyDescription("Pending, Running, Paused, Succeeded, Failed or Cancelled.")
  public Phase phase;

  @JsonPropertyDescription("Why the operation is in its phase, e.g. which failure stopped it.")
  public String message;

  @JsonPropertyDescription("Digest of the targets and steps this run executes: a new generation that changes them runs"
      + " again, one that only pauses or resumes does not.")
  public String planDigest;

  @JsonPropertyDescription("True when this was a dry run: the targets were listed, nothing was touched.")
  public Boolean dryRun;

  @JsonPropertyDescription("When the run started (RFC 3339).")
  public String startedAt;

  @JsonPropertyDescription("When the run ended (RFC 3339).")
  public String completedAt;

  @JsonPropertyDescription("The steps of this run, in order.")
  public List<String> steps = new ArrayList<>();

  @JsonPropertyDescription("How many targets are in each phase.")
  public Counts counts;

  @JsonPropertyDescription("Clusters the selection could not be resolved on, with the reason.")
  public List<ClusterProblem> unresolvedClusters = new ArrayList<>();

  @JsonPropertyDescription("Every target, in the order they run.")
  public List<Target> targets = new ArrayList<>();

  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Counts {
    public Integer total;
    public Integer pending;
    public Integer running;
    public Integer paused;
    public Integer succeeded;
    public Integer failed;
    public Integer unknown;
    public Integer cancelled;
  }

  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class ClusterProblem {
    public String cluster;
    public String reason;
  }

  /** One Controller the operation runs on. */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public static class Target {
    public String cluster;
    public String namespace;
    public String name;

    @JsonPropertyDescription("Pending, Running, Paused, Succeeded, Failed, Unknown (its cluster does not answer) or"
        + " Cancelled.")
    public TargetPhase phase;

    @JsonPropertyDescription("Index of the step under way or next (0-based).")
    public Integer step;

    @JsonPropertyDescription("What the step under way waits for, or why the target failed.")
    public String message;

    public String startedAt;
    public String completedAt;

    @JsonPropertyDescription("When the target's cluster last reported on it (RFC 3339).")
    public String reportedAt;

    @JsonPropertyDescription("One result per step started.")
    public List<StepResult> steps = new ArrayList<>();

    @JsonPropertyDescription("What the step under way has done so far (e.g. the instant it asked Jenkins to restart),"
        + " so a restarted operator resumes it instead of doing it again.")
    public Map<String, String> marks;
  }

  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class StepResult {
    public String type;

    @JsonPropertyDescription("Running, Paused, Succeeded or Failed.")
    public String phase;

    public String startedAt;
    public String completedAt;

    @JsonPropertyDescription("What happened, or the error.")
    public String message;
  }
}
