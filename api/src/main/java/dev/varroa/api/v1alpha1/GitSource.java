package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;

/** A Git repository location: URL, ref and folder. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class GitSource {
  @Required
  @Pattern("^(https?|ssh)://.+$")
  @JsonPropertyDescription("Repository URL: https://, http:// or ssh://. file:// and local paths are refused in the"
      + " cluster (they would read the operator's disk); varroactl reads file:// offline.")
  public String url;

  @Required
  @JsonPropertyDescription("Exactly one of branch, tag, semver or commit.")
  public GitRef ref;

  @Pattern("^[^/].*$")
  @JsonPropertyDescription("Folder inside the repository; default: the root.")
  public String path;

  @JsonPropertyDescription(
      "Secret (same namespace) with username/password, or identity and known_hosts for ssh.")
  public ObjectRef secretRef;

  /** The Git revision to follow. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @ValidationRule(
      value = "[has(self.branch), has(self.tag), has(self.semver), has(self.commit)].filter(x, x).size() == 1",
      message = "a git ref sets exactly one of branch, tag, semver or commit")
  public static class GitRef {
    @JsonPropertyDescription("Follow the tip of this branch.")
    public String branch;

    @JsonPropertyDescription("This tag.")
    public String tag;

    @JsonPropertyDescription("The highest tag matching this semver range, e.g. \">=1.2.0 <2.0.0\".")
    public String semver;

    @Pattern("^[0-9a-f]{40}$")
    @JsonPropertyDescription("This commit (40 hex digits).")
    public String commit;
  }
}
