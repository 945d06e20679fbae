package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.List;

/** The Jenkins container of a controller pod. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class JenkinsSpec {
  public enum PullPolicy {
    Always,
    IfNotPresent,
    Never
  }

  @Size(min = 1)
  @JsonPropertyDescription("Jenkins image; overrides the JenkinsVersionProfile's image. A change rolls the pod.")
  public String image;

  @JsonPropertyDescription("Image pull policy of the Jenkins container.")
  public PullPolicy imagePullPolicy;

  @JsonPropertyDescription("CPU and memory of the Jenkins container. A change rolls the pod.")
  public ResourceRequirements resources;

  @JsonPropertyDescription("Extra JVM options, appended after the ones Varroa sets (setup wizard off).")
  public String javaOpts;

  @Size(max = 256)
  @JsonPropertyDescription("Extra environment variables of the Jenkins container.")
  public List<EnvVar> env;
}
