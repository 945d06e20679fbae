package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;

/** The persistent volume that holds JENKINS_HOME. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PersistenceSpec {
  @Pattern(Names.QUANTITY)
  @JsonPropertyDescription("Requested size of the JENKINS_HOME volume, e.g. 50Gi. Resolved default: 20Gi.")
  public String size;

  @Pattern(Names.DNS1123_SUBDOMAIN)
  @JsonPropertyDescription("StorageClass of the volume; omitted: the cluster's default StorageClass.")
  public String storageClassName;
}
