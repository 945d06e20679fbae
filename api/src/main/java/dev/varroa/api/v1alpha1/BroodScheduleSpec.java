package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.Map;

/** When to create a BroodOperation, and which. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BroodScheduleSpec {
  public static final int DEFAULT_SUCCESSFUL_HISTORY = 3;
  public static final int DEFAULT_FAILED_HISTORY = 1;

  @Required
  @Size(min = 1, max = 128)
  @JsonPropertyDescription("Five cron fields (minute hour day-of-month month day-of-week), e.g. \"0 2 * * *\", or"
      + " @hourly, @daily, @weekly, @monthly, @yearly; read in timeZone.")
  public String schedule;

  @Size(max = 64)
  @JsonPropertyDescription("IANA time zone the schedule is read in, e.g. Europe/Berlin; omitted: UTC. A time skipped"
      + " by a daylight-saving change fires at the first instant after it; a time that happens twice fires once.")
  public String timeZone;

  @Required
  @JsonPropertyDescription("The BroodOperation each run creates.")
  public Template template;

  @Pattern("^(Forbid|Allow|Replace)$")
  @JsonPropertyDescription("When a run is due while the last one still runs: Forbid (default) skips the new run,"
      + " Allow starts it beside, Replace cancels the running one and starts the new one.")
  public String concurrencyPolicy;

  @Min(1)
  @JsonPropertyDescription("A run missed by more than this (the operator was down) is skipped, not started late;"
      + " omitted: a missed run starts as soon as the operator sees it.")
  public Long startingDeadlineSeconds;

  @Min(0)
  @Max(100)
  @JsonPropertyDescription("Finished successful BroodOperations kept; omitted: 3.")
  public Integer successfulHistoryLimit;

  @Min(0)
  @Max(100)
  @JsonPropertyDescription("Finished failed or cancelled BroodOperations kept; omitted: 1.")
  public Integer failedHistoryLimit;

  @JsonPropertyDescription("True: no run starts; runs under way go on.")
  public Boolean suspend;

  /** The BroodOperation to create. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Template {
    @JsonPropertyDescription("Labels and annotations of the created BroodOperations.")
    public TemplateMetadata metadata;

    @Required
    @JsonPropertyDescription("The BroodOperation's spec.")
    public BroodOperationSpec spec;
  }

  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class TemplateMetadata {
    public Map<String, String> labels;
    public Map<String, String> annotations;
  }
}
