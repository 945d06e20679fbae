package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** Where Kubernetes build agents run and how they reach the controller. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AgentsSpec {
  public enum Tunnel {
    direct,
    websocket
  }

  @Size(max = 63)
  @Pattern(Names.DNS1123_LABEL)
  @JsonPropertyDescription(
      "Namespace where agent pods run; Jenkins gets rights there only. Resolved default: <controller-namespace>-jobs.")
  public String namespace;

  @JsonPropertyDescription(
      "How agents connect: direct (TCP to the agent port 50000 of the controller Service) or websocket (through the HTTP port).")
  public Tunnel tunnel;

  @Size(max = 32)
  @JsonPropertyDescription("Pull secrets set on the agents namespace's default ServiceAccount.")
  public List<ObjectRef> imagePullSecrets;

  @Size(max = 262144)
  @JsonPropertyDescription("SSH known_hosts lines, published as a ConfigMap in the agents namespace for git over ssh.")
  public String knownHosts;
}
