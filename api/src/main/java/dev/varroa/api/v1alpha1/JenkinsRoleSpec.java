package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** Permissions of a JenkinsRole. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class JenkinsRoleSpec {
  @Required
  @Size(min = 1, max = 128)
  @JsonPropertyDescription("Jenkins permissions as Group/Name, e.g. Overall/Read, Job/Build, Job/Configure.")
  public List<@Pattern("^[A-Za-z]+/[A-Za-z]+$") String> permissions;

  @JsonPropertyDescription("Regular expression over item full names the role applies to; omitted: the whole controller.")
  public String itemPattern;
}
