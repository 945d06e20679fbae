package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/** A Flux source object whose status.artifact supplies the bundle directory. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class FluxSourceRef {
  public enum Kind {
    GitRepository,
    OCIRepository,
    Bucket,
    ExternalArtifact
  }

  @Required
  @JsonPropertyDescription("GitRepository, OCIRepository, Bucket or ExternalArtifact.")
  public Kind kind;

  @Required
  @Pattern(Names.DNS1123_SUBDOMAIN)
  @JsonPropertyDescription("Name of the Flux object, in the same namespace.")
  public String name;

  @Pattern("^[^/].*$")
  @JsonPropertyDescription("Folder inside the artifact; default: the root.")
  public String path;
}
