package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import java.util.Map;

/** Customisation of the Jenkins pod: labels, annotations, and a strategic merge into the pod spec. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodCustomization {
  @JsonPropertyDescription("Labels added to the pod.")
  public Map<String, String> labels;

  @JsonPropertyDescription("Annotations added to the pod.")
  public Map<String, String> annotations;

  @PreserveUnknownFields
  @JsonPropertyDescription(
      "Fields merged into the rendered pod spec (nodeSelector, tolerations, affinity, extra volumes...). A change rolls the pod.")
  public ObjectNode spec;
}
