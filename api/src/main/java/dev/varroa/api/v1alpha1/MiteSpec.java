package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

/** The mite sidecar. Any change here rolls the pod. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MiteSpec {
  @Size(min = 1)
  @JsonPropertyDescription("mite image; omitted: the image matching the operator's version.")
  public String image;

  @JsonPropertyDescription("Image pull policy of the mite container.")
  public JenkinsSpec.PullPolicy imagePullPolicy;

  @JsonPropertyDescription("CPU and memory of the mite container.")
  public ResourceRequirements resources;
}
