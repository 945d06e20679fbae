package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** A Jenkins version with the plugin set known to work with it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class JenkinsVersionProfileSpec {
  @Required
  @Pattern("^[0-9]+\\.[0-9]+(\\.[0-9]+)?$")
  @JsonPropertyDescription("Jenkins core version, e.g. 2.528.3.")
  public String jenkinsVersion;

  @Required
  @Size(min = 1)
  @JsonPropertyDescription("Jenkins image for this version, e.g. jenkins/jenkins:2.528.3-lts-jdk21.")
  public String image;

  @Size(max = 2000)
  @JsonPropertyDescription("The compatible plugin set; always installed, and the version an unpinned plugin takes. Ids must be unique (checked in status).")
  public List<PluginVersion> plugins;

  @Size(max = 1048576)
  @JsonPropertyDescription("JCasC YAML merged after every bundle input (may use !replace and !remove).")
  public String jcascOverlay;

  /** One plugin at one version. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class PluginVersion {
    @Required
    @Pattern("^[A-Za-z0-9][A-Za-z0-9._-]*$")
    @JsonPropertyDescription("Plugin id, e.g. git.")
    public String id;

    @Required
    @Pattern("^[A-Za-z0-9][A-Za-z0-9._+-]*$")
    @JsonPropertyDescription("Plugin version, e.g. 5.7.0.")
    public String version;
  }
}
