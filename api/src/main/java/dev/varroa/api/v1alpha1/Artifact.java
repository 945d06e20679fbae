package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** A rendered or fetched artifact, in Flux's vocabulary. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Artifact {
  @JsonPropertyDescription("Source revision, e.g. main@sha1:<40 hex> or 1.4.0@sha256:<64 hex>.")
  public String revision;

  @JsonPropertyDescription("Content digest, sha256:<64 hex>.")
  public String digest;

  @JsonPropertyDescription("When this artifact was produced (RFC 3339).")
  public String lastUpdateTime;
}
