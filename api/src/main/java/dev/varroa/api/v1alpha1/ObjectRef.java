package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** A reference by name to another object: in the same namespace, or cluster-scoped. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ObjectRef {
  @Required
  @Size(min = 1, max = 253)
  @Pattern(Names.DNS1123_SUBDOMAIN)
  @JsonPropertyDescription("Name of the referenced object (a DNS-1123 subdomain).")
  public String name;

  public ObjectRef() {}

  public ObjectRef(String name) {
    this.name = name;
  }

  public static ObjectRef of(String name) {
    return new ObjectRef(name);
  }
}
