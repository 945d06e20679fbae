package dev.varroa.operator.snapshot;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.Map;

/**
 * The cluster-scoped VolumeSnapshotClass: which CSI driver takes a snapshot. Its fields sit at the top level, not
 * under spec, so they are mapped as additional properties of this class.
 */
@Group(VolumeSnapshot.GROUP)
@Version("v1")
@Kind("VolumeSnapshotClass")
@Plural("volumesnapshotclasses")
@JsonIgnoreProperties(ignoreUnknown = true)
public class VolumeSnapshotClass extends CustomResource<Void, Void> {
  public String driver;
  public String deletionPolicy;
  public Map<String, String> parameters;

  /** The annotation that makes a class the default of its driver. */
  public static final String DEFAULT_ANNOTATION = "snapshot.storage.kubernetes.io/is-default-class";
}
