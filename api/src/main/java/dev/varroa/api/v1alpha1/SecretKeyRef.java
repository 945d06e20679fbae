package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** One key of a Kubernetes Secret in the same namespace. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SecretKeyRef {
  @Required
  @Size(min = 1, max = 253)
  @Pattern(Names.DNS1123_SUBDOMAIN)
  @JsonPropertyDescription("Secret name.")
  public String name;

  @Required
  @Pattern("^[-._a-zA-Z0-9]+$")
  @JsonPropertyDescription("Key within the Secret.")
  public String key;
}
