package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.Pattern;
import java.util.List;

/** A role granted to subjects, the same shape for VarroaRoleBinding and JenkinsRoleBinding. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RoleBindingSpec {
  @Required
  @JsonPropertyDescription("The role (cluster-scoped) granted.")
  public ObjectRef roleRef;

  @Required
  @Size(min = 1, max = 256)
  @JsonPropertyDescription("Users and groups who receive the role.")
  public List<Subject> subjects;

  @Size(max = 256)
  @JsonPropertyDescription("Namespaces where the grant applies; omitted: every namespace.")
  public List<@Pattern(Names.DNS1123_LABEL) String> namespaces;
}
