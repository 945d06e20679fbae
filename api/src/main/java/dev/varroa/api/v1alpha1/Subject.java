package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** Who a role binding grants to: a user or a group, as the identity provider names them. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Subject {
  public enum Kind {
    User,
    Group
  }

  @Required
  @JsonPropertyDescription("User or Group.")
  public Kind kind;

  @Required
  @Size(min = 1, max = 256)
  @JsonPropertyDescription("User name or group name from the identity provider (Dex/OIDC).")
  public String name;
}
