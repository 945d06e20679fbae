package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** A VolumeSnapshot that JENKINS_HOME starts from, restored before Jenkins starts; see docs/backups.md. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RestoreSpec {
  @Required
  @Size(max = 253)
  @Pattern(Names.DNS1123_SUBDOMAIN)
  @JsonPropertyDescription(
      "VolumeSnapshot (same namespace) to create JENKINS_HOME from. Restored once per name: a new name restores"
          + " again, draining and stopping a running controller first; the old volume is kept (Retain).")
  public String volumeSnapshotName;
}
