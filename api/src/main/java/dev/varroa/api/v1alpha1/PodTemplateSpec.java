package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.LabelSelector;

/** One Jenkins Kubernetes-plugin pod template. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodTemplateSpec {
  public enum NodeUsageMode {
    NORMAL,
    EXCLUSIVE
  }

  @Required
  @Size(min = 1, max = 1024)
  @JsonPropertyDescription("Jenkins label(s) that select this template, space separated, e.g. \"maven java-17\".")
  public String label;

  @JsonPropertyDescription("Which Controllers in this namespace get the template (by their labels); empty: all.")
  public LabelSelector controllerSelector;

  @Min(0)
  @JsonPropertyDescription("Most agent pods of this template at once; omitted: no limit.")
  public Integer instanceCap;

  @Min(0)
  @JsonPropertyDescription("Minutes an idle agent is kept before it is removed; omitted: removed after its build.")
  public Integer idleMinutes;

  @JsonPropertyDescription("NORMAL: any build may use it; EXCLUSIVE: only builds that ask for its label.")
  public NodeUsageMode nodeUsageMode;

  @Pattern(Names.DNS1123_SUBDOMAIN)
  @JsonPropertyDescription("ServiceAccount of the agent pods, in the agents namespace.")
  public String serviceAccountName;

  @PreserveUnknownFields
  @JsonPropertyDescription("Pod spec of the agent (containers, volumes, ...), merged with the jnlp container Jenkins adds.")
  public ObjectNode pod;
}
