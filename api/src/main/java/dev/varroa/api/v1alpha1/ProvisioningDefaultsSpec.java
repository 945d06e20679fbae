package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;

/** Installation-wide defaults: the lowest precedence for every Controller setting. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ProvisioningDefaultsSpec extends ControllerSettings {
  /** The product default deadline of one desired-state command: 20 minutes. */
  public static final int DEFAULT_COMMAND_DEADLINE_SEC = 1200;

  @Min(1)
  @Default("1200")
  @JsonPropertyDescription("Deadline of each desired-state command sent to a mite, in seconds.")
  public Integer commandDeadlineSec;
}
