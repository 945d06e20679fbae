package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/** Which folder of which CatalogSource this item is. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CatalogItemSpec {
  @Required
  @JsonPropertyDescription("The CatalogSource (same namespace) that holds this item.")
  public ObjectRef sourceRef;

  @Required
  @Pattern("^items/[^/]+$")
  @JsonPropertyDescription("Folder of the item inside the source: items/<item-name>.")
  public String path;

  @JsonPropertyDescription("The item's description, from its bundle.yaml.")
  public String description;
}
