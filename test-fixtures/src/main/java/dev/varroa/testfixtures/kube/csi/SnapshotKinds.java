package dev.varroa.testfixtures.kube.csi;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * The three snapshot.storage.k8s.io/v1 kinds as generic resources: test-fixtures cannot see the operator's model
 * classes (they live in reconcilers), and naming the contexts here spares a discovery call per client.
 */
public final class SnapshotKinds {
  public static final String API_VERSION = SnapshotCrds.GROUP + "/v1";
  public static final ResourceDefinitionContext VOLUME_SNAPSHOT = context("VolumeSnapshot", "volumesnapshots", true);
  public static final ResourceDefinitionContext VOLUME_SNAPSHOT_CONTENT =
      context("VolumeSnapshotContent", "volumesnapshotcontents", false);
  public static final ResourceDefinitionContext VOLUME_SNAPSHOT_CLASS =
      context("VolumeSnapshotClass", "volumesnapshotclasses", false);

  private SnapshotKinds() {}

  public static MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
      snapshots(KubernetesClient client) {
    return client.genericKubernetesResources(VOLUME_SNAPSHOT);
  }

  public static MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
      contents(KubernetesClient client) {
    return client.genericKubernetesResources(VOLUME_SNAPSHOT_CONTENT);
  }

  public static MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
      classes(KubernetesClient client) {
    return client.genericKubernetesResources(VOLUME_SNAPSHOT_CLASS);
  }

  /** A VolumeSnapshot of a claim, as the operator would create it; {@code className} may be null for the default. */
  public static GenericKubernetesResource snapshotOf(String namespace, String name, String claim, String className) {
    GenericKubernetesResource snapshot = new GenericKubernetesResource();
    snapshot.setApiVersion(API_VERSION);
    snapshot.setKind("VolumeSnapshot");
    snapshot.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
        .withNamespace(namespace).withName(name).build());
    java.util.Map<String, Object> spec = new java.util.LinkedHashMap<>();
    spec.put("source", java.util.Map.of("persistentVolumeClaimName", claim));
    if (className != null) {
      spec.put("volumeSnapshotClassName", className);
    }
    snapshot.setAdditionalProperty("spec", spec);
    return snapshot;
  }

  private static ResourceDefinitionContext context(String kind, String plural, boolean namespaced) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(SnapshotCrds.GROUP).withVersion("v1").withKind(kind).withPlural(plural).withNamespaced(namespaced)
        .build();
  }
}
