package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/** A JCasC variable ${name} whose value is a key of a Kubernetes Secret. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SecretVariable {
  @Required
  @Pattern(Names.VARIABLE_NAME)
  @JsonPropertyDescription("Variable name as used in JCasC, e.g. GITHUB_TOKEN for ${GITHUB_TOKEN}.")
  public String name;

  @Required
  @JsonPropertyDescription("The Secret key that holds the value.")
  public SecretKeyRef secretKeyRef;
}
