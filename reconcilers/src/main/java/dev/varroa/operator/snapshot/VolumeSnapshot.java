package dev.varroa.operator.snapshot;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The CSI external-snapshotter's VolumeSnapshot (snapshot.storage.k8s.io/v1), modelled here because fabric8's
 * volumesnapshot extension is not available; only the fields Varroa reads and writes. Its CRD is the snapshotter's,
 * never generated from this class.
 */
@Group(VolumeSnapshot.GROUP)
@Version("v1")
@Kind("VolumeSnapshot")
@Plural("volumesnapshots")
@JsonIgnoreProperties(ignoreUnknown = true)
public class VolumeSnapshot extends CustomResource<VolumeSnapshot.Spec, VolumeSnapshot.Status> implements Namespaced {
  public static final String GROUP = "snapshot.storage.k8s.io";

  /** What to snapshot, and with which class. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class Spec {
    public Source source;
    public String volumeSnapshotClassName;
  }

  /** Exactly one of a claim to snapshot now or a content that already exists. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class Source {
    public String persistentVolumeClaimName;
    public String volumeSnapshotContentName;
  }

  /** Written by the snapshot controller. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class Status {
    public String boundVolumeSnapshotContentName;
    public String creationTime;
    public Boolean readyToUse;
    public String restoreSize;
    public SnapshotError error;
  }

  /** The CSI driver's last error for this snapshot. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class SnapshotError {
    public String message;
    public String time;
  }

  public static VolumeSnapshot of(String namespace, String name, String claim, String className) {
    VolumeSnapshot snapshot = new VolumeSnapshot();
    snapshot.getMetadata().setNamespace(namespace);
    snapshot.getMetadata().setName(name);
    Spec spec = new Spec();
    spec.source = new Source();
    spec.source.persistentVolumeClaimName = claim;
    spec.volumeSnapshotClassName = className;
    snapshot.setSpec(spec);
    return snapshot;
  }

  public boolean ready() {
    return getStatus() != null && Boolean.TRUE.equals(getStatus().readyToUse);
  }
}
