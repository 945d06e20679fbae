package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;

/** Where a catalog lives: exactly one of git or oci. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
    value = "[has(self.git), has(self.oci)].filter(x, x).size() == 1",
    message = "a catalog source sets exactly one of git or oci")
public class CatalogSourceSpec {
  @JsonPropertyDescription("A Git repository whose items/<name>/ folders are catalog items.")
  public GitSource git;

  @JsonPropertyDescription("An OCI artifact whose items/<name>/ folders are catalog items.")
  public OciSource oci;

  @Default("5m")
  @Pattern(Names.DURATION)
  @JsonPropertyDescription("How often the source is checked for a new revision.")
  public String interval;

  @Default("false")
  @JsonPropertyDescription("Stop checking; the indexed items stay as they are.")
  public Boolean suspend;
}
