package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/** Where controllers fetch plugins from. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class UpdateCenterSpec {
  @Required
  @Pattern("^https?://.+$")
  @JsonPropertyDescription("URL of the update-center.json, e.g. https://uc.example.com/update-center.json.")
  public String url;

  @Pattern("^https?://.+$")
  @JsonPropertyDescription("Base URL plugins download from, e.g. https://uc.example.com/download/plugins.")
  public String pluginDownloadURL;

  @JsonPropertyDescription("Secret (operator namespace) with ca.crt to trust the service's TLS certificate.")
  public ObjectRef caSecretRef;
}
