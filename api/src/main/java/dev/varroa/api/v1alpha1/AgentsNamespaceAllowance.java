package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/**
 * An administrator's allowance: the Controllers of one namespace may run their agents in these namespaces besides
 * the default {@code <namespace>-jobs}. Only ProvisioningDefaults carries it, so a tenant cannot grant it itself.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AgentsNamespaceAllowance {
  @Required
  @Size(min = 1, max = 63)
  @Pattern(Names.DNS1123_LABEL)
  @JsonPropertyDescription("The namespace of the Controllers this allowance is for.")
  public String controllerNamespace;

  @Required
  @Size(min = 1, max = 32)
  @JsonPropertyDescription("Namespaces those Controllers may name in spec.agents.namespace. Each must be a namespace "
      + "Varroa created (or one labelled app.kubernetes.io/managed-by: varroa) or not exist yet; it may not be a "
      + "Controller's own namespace.")
  public List<@Size(min = 1, max = 63) @Pattern(Names.DNS1123_LABEL) String> agentsNamespaces;

  public AgentsNamespaceAllowance() {}

  public AgentsNamespaceAllowance(String controllerNamespace, List<String> agentsNamespaces) {
    this.controllerNamespace = controllerNamespace;
    this.agentsNamespaces = agentsNamespaces;
  }
}
