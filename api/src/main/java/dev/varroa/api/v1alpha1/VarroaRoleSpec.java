package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
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

    @Size(max = 64)
    @JsonPropertyDescription("Clusters the rule covers, by registered name; omitted: every cluster.")
    public List<@Pattern(Names.DNS1123_SUBDOMAIN) String> clusters;

    @Size(max = 256)
    @JsonPropertyDescription("Namespaces the rule covers; omitted: every namespace. A binding's namespaces narrow it further.")
    public List<@Pattern(Names.DNS1123_LABEL) String> namespaces;

    @Size(max = 256)
    @JsonPropertyDescription("Controllers the rule covers, by name; omitted: every Controller (see controllerSelector).")
    public List<@Pattern(Names.DNS1123_SUBDOMAIN) String> controllers;

    @JsonPropertyDescription("Controllers the rule covers, by label: every matchLabels entry must match; omitted: every Controller.")
    public LabelSelector controllerSelector;
  }

  /** Controllers by label, as Kubernetes' matchLabels. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class LabelSelector {
    @Size(max = 32)
    @JsonPropertyDescription("Labels a Controller must all carry with these values.")
    public java.util.Map<String, String> matchLabels;
  }
}
