package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;

/** The effective reconciliation policy: how a planned termination drains builds. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ReconciliationSpec {
  /** The product default drain timeout: 900 seconds. */
  public static final int DEFAULT_DRAIN_TIMEOUT_SECONDS = 900;

  @Min(0)
  @Default("900")
  @JsonPropertyDescription(
      "Seconds a planned termination waits for running builds in quiet-down mode; 0 ends at once.")
  public Integer drainTimeoutSeconds;
}
