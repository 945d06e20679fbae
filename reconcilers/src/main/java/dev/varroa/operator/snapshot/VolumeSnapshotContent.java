package dev.varroa.operator.snapshot;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/** The cluster-scoped VolumeSnapshotContent a VolumeSnapshot binds to; read only, for the driver's handle. */
@Group(VolumeSnapshot.GROUP)
@Version("v1")
@Kind("VolumeSnapshotContent")
@Plural("volumesnapshotcontents")
@JsonIgnoreProperties(ignoreUnknown = true)
public class VolumeSnapshotContent
    extends CustomResource<VolumeSnapshotContent.Spec, VolumeSnapshotContent.Status> {

  /** The driver, the deletion policy and the VolumeSnapshot it belongs to. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class Spec {
    public String driver;
    public String deletionPolicy;
    public String volumeSnapshotClassName;
    public io.fabric8.kubernetes.api.model.ObjectReference volumeSnapshotRef;
    public Source source;
  }

  /** A volume to snapshot (dynamic) or an existing snapshot's handle (pre-provisioned). */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class Source {
    public String volumeHandle;
    public String snapshotHandle;
  }

  /** Written by the snapshotter sidecar. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class Status {
    public String snapshotHandle;
    public Long creationTime;
    public Boolean readyToUse;
    public Long restoreSize;
    public VolumeSnapshot.SnapshotError error;
  }
}
