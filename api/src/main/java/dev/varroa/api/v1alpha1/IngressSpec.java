package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;

/** An optional Ingress for the Jenkins web UI. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
    value = "!has(self.enabled) || !self.enabled || has(self.host)",
    message = "ingress.host is required when ingress.enabled is true")
public class IngressSpec {
  @JsonPropertyDescription("Create an Ingress for the Jenkins web UI.")
  public Boolean enabled;

  @Pattern(Names.DNS1123_SUBDOMAIN)
  @JsonPropertyDescription("Host name that routes to Jenkins, e.g. jenkins.example.com.")
  public String host;

  @Pattern(Names.DNS1123_SUBDOMAIN)
  @JsonPropertyDescription("IngressClass to use; omitted: the cluster default.")
  public String className;

  @JsonPropertyDescription("TLS for the host.")
  public IngressTls tls;

  /** TLS settings of the Ingress. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class IngressTls {
    @Pattern(Names.DNS1123_SUBDOMAIN)
    @JsonPropertyDescription("Secret (same namespace) holding tls.crt and tls.key for the host.")
    public String secretName;
  }
}
