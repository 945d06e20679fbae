package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** Inputs of a ComposedBundle, merged in order: a later input overrides an earlier one. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ComposedBundleSpec {
  @Default("5m")
  @Pattern(Names.DURATION)
  @JsonPropertyDescription("How often remote refs are checked (ls-remote / tag resolve), e.g. 5m.")
  public String interval;

  @Default("false")
  @JsonPropertyDescription("Stop checking and rendering; the last render stays in force.")
  public Boolean suspend;

  @JsonPropertyDescription("JenkinsVersionProfile for this bundle; a Controller may name its own.")
  public ObjectRef versionProfileRef;

  @Required
  @Size(min = 1, max = 256)
  @JsonPropertyDescription("Ordered inputs; later inputs override earlier ones.")
  public List<BundleInput> inputs;

  @Size(max = 128)
  @JsonPropertyDescription("Secret variables the bundle's JCasC uses as ${NAME}; a Controller supplies their values.")
  public List<DeclaredSecret> secrets;

  /** A secret variable the bundle needs, by name only: values never live in a bundle. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class DeclaredSecret {
    @Required
    @Pattern(Names.VARIABLE_NAME)
    @JsonPropertyDescription("Variable name as used in JCasC.")
    public String name;

    @JsonPropertyDescription("What the secret is for.")
    public String description;
  }
}
