package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;

/** An OCI artifact location: repository URL and ref. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class OciSource {
  @Required
  @Pattern("^oci://.+$")
  @JsonPropertyDescription("Repository URL, e.g. oci://registry.example.com/ci/bundles/team-a.")
  public String url;

  @Required
  @JsonPropertyDescription("Exactly one of tag, semver or digest.")
  public OciRef ref;

  @Pattern("^[^/].*$")
  @JsonPropertyDescription("Folder inside the artifact; default: the root.")
  public String path;

  @JsonPropertyDescription("Secret (same namespace) with registry credentials (username/password or token).")
  public ObjectRef secretRef;

  /** The artifact version to follow. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @ValidationRule(
      value = "[has(self.tag), has(self.semver), has(self.digest)].filter(x, x).size() == 1",
      message = "an oci ref sets exactly one of tag, semver or digest")
  public static class OciRef {
    @Pattern("^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$")
    @JsonPropertyDescription("This tag.")
    public String tag;

    @JsonPropertyDescription("The highest tag matching this semver range.")
    public String semver;

    @Pattern("^sha256:[a-f0-9]{64}$")
    @JsonPropertyDescription("This manifest digest (sha256:...).")
    public String digest;
  }
}
