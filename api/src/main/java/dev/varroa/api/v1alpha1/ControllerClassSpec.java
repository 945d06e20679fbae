package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Reusable controller settings that Controllers select with spec.classRef. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ControllerClassSpec extends ControllerSettings {
  @JsonPropertyDescription("What this class is for, shown to people choosing one.")
  public String description;
}
