package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.ValidationRule;

/** One input of a ComposedBundle: exactly one of git, oci, catalogItem or fluxSource. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
    value = "[has(self.git), has(self.oci), has(self.catalogItem), has(self.fluxSource)].filter(x, x).size() == 1",
    message = "an input sets exactly one of git, oci, catalogItem or fluxSource")
public class BundleInput {
  @JsonPropertyDescription("A CatalogItem in the same namespace.")
  public ObjectRef catalogItem;

  @JsonPropertyDescription("A folder of a Git repository at a branch, tag, semver range or commit.")
  public GitSource git;

  @JsonPropertyDescription("An OCI artifact at a tag, semver range or digest.")
  public OciSource oci;

  @JsonPropertyDescription("An artifact of a Flux source object in the same namespace.")
  public FluxSourceRef fluxSource;
}
