package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;

/** Build claims: whether a queued build must be granted by the build record store's ledger before it starts. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BuildClaimsSpec {
  @Default("false")
  @JsonPropertyDescription("When true, a queued build starts only with a granted claim from the ledger (gated by the"
      + " build record store: the installation needs recordStore.enabled=true). Off by default.")
  public Boolean gate;
}
