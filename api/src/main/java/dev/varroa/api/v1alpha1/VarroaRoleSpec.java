package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** Rules of a VarroaRole. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class VarroaRoleSpec {
  @Required
  @Size(min = 1, max = 64)
  @JsonPropertyDescription("What the role allows.")
  public List<Rule> rules;

  /** Verbs allowed on resources. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Rule {
    public enum Verb {
      get,
      list,
      watch,
      create,
      update,
      delete,
      trigger,
      scale,
      drain,
      all
    }

    @Required
    @Size(min = 1)
    @JsonPropertyDescription("Actions: get, list, watch, create, update, delete, trigger, scale, drain, or all.")
    public List<Verb> verbs;

    @Required
    @Size(min = 1)
    @JsonPropertyDescription("Resource kinds in lower-case plural (controllers, composedbundles, activity, ...), or * for all.")
    public List<String> resources;
  }
}
