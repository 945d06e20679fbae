package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.List;

/** What a BroodOperation does: which Controllers, which steps on each, and how many at a time. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BroodOperationSpec {
  /** Targets in flight at once when strategy.maxConcurrent is omitted: one, the careful default. */
  public static final int DEFAULT_MAX_CONCURRENT = 1;
  public static final int DEFAULT_STEP_TIMEOUT_SECONDS = 1800;
  /** The drain timeout of the product documents: how long running builds are waited for. */
  public static final int DEFAULT_DRAIN_TIMEOUT_SECONDS = 900;

  @Required
  @JsonPropertyDescription("Which Controllers the operation runs on. Every field given narrows the selection; at least"
      + " one must be given, so an operation never runs on everything by omission.")
  public Targets targets;

  @Required
  @Size(min = 1, max = 20)
  @JsonPropertyDescription("Steps run in order on each target; a target moves to its next step once one succeeded.")
  public List<Step> steps;

  @JsonPropertyDescription("How many targets at a time, what a failure stops, how long a step may take.")
  public Strategy strategy;

  @JsonPropertyDescription("True pauses the operation: steps under way finish, no step starts. False resumes it.")
  public Boolean suspend;

  @JsonPropertyDescription("True cancels the operation: no step starts again and targets not finished are Cancelled."
      + " A cancelled operation stays cancelled.")
  public Boolean cancel;

  @JsonPropertyDescription("True only resolves the targets and lists them with the steps in status; nothing is touched.")
  public Boolean dryRun;

  /** The selection; each field narrows it. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @ValidationRule(
      value = "has(self.clusters) || has(self.namespaces) || has(self.names) || has(self.selector) || has(self.phases)",
      message = "spec.targets selects nothing: give at least one of clusters (\"*\" for every registered cluster),"
          + " namespaces, names, selector or phases")
  public static class Targets {
    @Size(min = 1, max = 64)
    @JsonPropertyDescription("Registered cluster names, or \"*\" for every registered cluster; omitted: the cluster"
        + " holding this BroodOperation. Only the core cluster's operator may reach other clusters.")
    public List<@Pattern("^(\\*|[a-z0-9]([-a-z0-9]*[a-z0-9])?)$") String> clusters;

    @Size(min = 1, max = 256)
    @JsonPropertyDescription("Namespaces the Controllers are in; omitted: every namespace.")
    public List<@Pattern(Names.DNS1123_LABEL) String> namespaces;

    @Size(min = 1, max = 1024)
    @JsonPropertyDescription("Controller names; omitted: every name.")
    public List<@Pattern(Names.DNS1123_SUBDOMAIN) String> names;

    @JsonPropertyDescription("Controllers by label (matchLabels and matchExpressions, as Kubernetes reads them).")
    public LabelSelector selector;

    @Size(min = 1, max = 7)
    @JsonPropertyDescription("Only Controllers in one of these phases when the operation starts, e.g. [Connected].")
    public List<@Pattern("^(Pending|Provisioning|Running|Connected|Stopped|Hibernated|Failed)$") String> phases;
  }

  /** One step of the fixed vocabulary (docs/brood-operations.md says why there is no free-form script). */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Step {
    @Required
    @Pattern("^(backup|quietDown|cancelQuietDown|safeRestart|reprovision|reapplyConfiguration|wake|hibernate"
        + "|waitForIdle|pause)$")
    @JsonPropertyDescription("backup, quietDown, cancelQuietDown, safeRestart, reprovision, reapplyConfiguration, wake,"
        + " hibernate, waitForIdle or pause.")
    public String type;

    @Min(1)
    @Max(604800)
    @JsonPropertyDescription("How long this step may take on one target; omitted: strategy.stepTimeoutSeconds.")
    public Integer timeoutSeconds;

    @Size(max = 512)
    @JsonPropertyDescription("For pause: what the person resuming should check first. Shown with the paused target.")
    public String note;
  }

  /** How the targets are worked through. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @ValidationRule(
      value = "!has(self.failurePolicy) || self.failurePolicy != 'StopAfterFailures' || has(self.maxFailures)",
      message = "spec.strategy.failurePolicy StopAfterFailures needs spec.strategy.maxFailures: the number of failed"
          + " targets that stops the operation")
  @ValidationRule(
      value = "!has(self.maxConcurrent) || (type(self.maxConcurrent) == int ? self.maxConcurrent >= 1"
          + " : self.maxConcurrent.matches('^([1-9][0-9]?|100)%$'))",
      message = "spec.strategy.maxConcurrent is a count of at least 1 (e.g. 5) or a percentage of the targets from 1%"
          + " to 100% (e.g. \"25%\")")
  public static class Strategy {
    @JsonPropertyDescription("Targets in flight at once, a count (5) or a percentage of the targets (\"25%\", rounded"
        + " down, at least 1); omitted: 1.")
    public IntOrString maxConcurrent;

    @Pattern("^(StopOnFirstFailure|Continue|StopAfterFailures)$")
    @JsonPropertyDescription("StopOnFirstFailure (default): no new target starts after one failed. Continue: every"
        + " target runs. StopAfterFailures: stop once maxFailures targets failed.")
    public String failurePolicy;

    @Min(1)
    @JsonPropertyDescription("With failurePolicy StopAfterFailures: failed targets that stop the operation.")
    public Integer maxFailures;

    @Min(1)
    @Max(604800)
    @JsonPropertyDescription("How long one step may take on one target before it fails; omitted: 1800.")
    public Integer stepTimeoutSeconds;

    @Min(0)
    @Max(86400)
    @JsonPropertyDescription("How long safeRestart and waitForIdle wait for running builds; omitted: 900, the drain"
        + " timeout.")
    public Integer drainTimeoutSeconds;
  }
}
