package dev.varroa.testfixtures.kube.csi;

import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The StatefulSet controller's part in storage: the claims {@code <template>-<statefulset>-<ordinal>} made from its
 * volumeClaimTemplates, left unbound for a {@link CsiStandIn} (or a test) to bind, as on a cluster.
 */
public final class StatefulSetClaims {
  private StatefulSetClaims() {}

  /** The claim name a StatefulSet's pod {@code ordinal} mounts for one of its volumeClaimTemplates. */
  public static String claimName(StatefulSet statefulSet, String template, int ordinal) {
    return template + "-" + statefulSet.getMetadata().getName() + "-" + ordinal;
  }

  /**
   * Creates each missing claim of pod {@code ordinal} from the StatefulSet's volumeClaimTemplates: the template's
   * spec and labels plus the StatefulSet's selector labels, no volumeName, and an owner reference to the StatefulSet
   * only when its persistentVolumeClaimRetentionPolicy.whenDeleted is Delete. An existing claim is kept as it is,
   * so a re-created StatefulSet finds its old claims. Returns the claims in template order.
   */
  public static List<PersistentVolumeClaim> create(KubernetesClient client, StatefulSet statefulSet, int ordinal) {
    String namespace = statefulSet.getMetadata().getNamespace();
    List<PersistentVolumeClaim> claims = new ArrayList<>();
    for (PersistentVolumeClaim template : statefulSet.getSpec().getVolumeClaimTemplates()) {
      String name = claimName(statefulSet, template.getMetadata().getName(), ordinal);
      PersistentVolumeClaim existing = client.persistentVolumeClaims().inNamespace(namespace).withName(name).get();
      claims.add(existing != null ? existing : client.resource(fromTemplate(statefulSet, template, name)).create());
    }
    return claims;
  }

  private static PersistentVolumeClaim fromTemplate(StatefulSet statefulSet, PersistentVolumeClaim template, String name) {
    Map<String, String> labels = new LinkedHashMap<>();
    if (template.getMetadata().getLabels() != null) {
      labels.putAll(template.getMetadata().getLabels());
    }
    if (statefulSet.getSpec().getSelector() != null && statefulSet.getSpec().getSelector().getMatchLabels() != null) {
      labels.putAll(statefulSet.getSpec().getSelector().getMatchLabels());
    }
    PersistentVolumeClaimBuilder claim = new PersistentVolumeClaimBuilder()
        .withNewMetadata()
        .withNamespace(statefulSet.getMetadata().getNamespace())
        .withName(name)
        .withLabels(labels)
        .withAnnotations(template.getMetadata().getAnnotations())
        .endMetadata()
        .withSpec(new PersistentVolumeClaimSpecBuilder(template.getSpec()).withVolumeName(null).build());
    var retention = statefulSet.getSpec().getPersistentVolumeClaimRetentionPolicy();
    if (retention != null && "Delete".equals(retention.getWhenDeleted())) {
      claim.editMetadata().addToOwnerReferences(new OwnerReferenceBuilder()
          .withApiVersion("apps/v1").withKind("StatefulSet")
          .withName(statefulSet.getMetadata().getName()).withUid(statefulSet.getMetadata().getUid())
          .withController(true).withBlockOwnerDeletion(true)
          .build()).endMetadata();
    }
    return claim.build();
  }
}
