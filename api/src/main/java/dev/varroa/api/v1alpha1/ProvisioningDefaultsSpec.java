package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** Installation-wide defaults: the lowest precedence for every Controller setting. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ProvisioningDefaultsSpec extends ControllerSettings {
  /** The product default deadline of one desired-state command: 20 minutes. */
  public static final int DEFAULT_COMMAND_DEADLINE_SEC = 1200;

  @Min(1)
  @Default("1200")
  @JsonPropertyDescription("Deadline of each desired-state command sent to a mite, in seconds.")
  public Integer commandDeadlineSec;

  @Size(max = 256)
  @JsonPropertyDescription("Agents namespaces other than <namespace>-jobs that the Controllers of a namespace may name in "
      + "spec.agents.namespace; any other is refused, since Jenkins gets pod rights there.")
  public List<AgentsNamespaceAllowance> allowedAgentsNamespaces;
}
