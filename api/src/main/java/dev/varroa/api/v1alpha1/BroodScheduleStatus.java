package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;

/** What a BroodSchedule last did and will do next. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class BroodScheduleStatus extends ConditionedStatus {
  @JsonPropertyDescription("The scheduled time of the last run started (RFC 3339).")
  public String lastRunTime;

  @JsonPropertyDescription("The next time a run is due (RFC 3339); empty while suspended.")
  public String nextRunTime;

  @JsonPropertyDescription("The BroodOperation the last run created.")
  public String lastOperation;

  @JsonPropertyDescription("The phase of the last run's BroodOperation: Running, Succeeded, Failed, Cancelled, or"
      + " Skipped when a run was due but not started (the message says why).")
  public String lastResult;

  @JsonPropertyDescription("Why the last due run was skipped, if it was.")
  public String message;

  @JsonPropertyDescription("BroodOperations this schedule created that have not finished.")
  public List<String> active = new ArrayList<>();
}
