package dev.varroa.operator.install;

import dev.varroa.operator.apply.OwnerReferences;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the objects the operator makes at run time in the release namespace (the installation Secrets, the leader
 * Lease) belong to: the chart's operator ServiceAccount, which lives exactly as long as the release, so `helm
 * uninstall` takes them away with it through the garbage collector.
 */
public final class InstallationOwner {
  /** The chart's ServiceAccount of the operator. */
  public static final String SERVICE_ACCOUNT = "varroa-operator";
  private static final Logger LOG = LoggerFactory.getLogger(InstallationOwner.class);

  private final KubernetesClient client;
  private final String namespace;

  public InstallationOwner(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  /** The owner reference; none where the operator runs without the chart (a local run has no such account). */
  public Optional<OwnerReference> reference() {
    ServiceAccount account = client.serviceAccounts().inNamespace(namespace).withName(SERVICE_ACCOUNT).get();
    return Optional.ofNullable(account).map(OwnerReferences::owner);
  }

  /** Gives an object without owners this owner (a merge patch); one that has owners, or no owner to give, stays. */
  public <T extends HasMetadata> T adopt(Resource<T> resource, T current, Optional<OwnerReference> owner) {
    List<OwnerReference> owners = current.getMetadata().getOwnerReferences();
    if (owner.isEmpty() || owners != null && !owners.isEmpty()) {
      return current;
    }
    T patched = resource.patch(PatchContext.of(PatchType.JSON_MERGE), client.getKubernetesSerialization()
        .asJson(Map.of("metadata", Map.of("ownerReferences", List.of(owner.get())))));
    LOG.info("event=installation_object_adopted kind={} name={}/{} owner=ServiceAccount/{}", current.getKind(),
        namespace, current.getMetadata().getName(), SERVICE_ACCOUNT);
    return patched;
  }

  /** The leader's Lease, once this replica holds it; a failure is logged (uninstall then leaves the Lease behind). */
  public void adoptLease(String leaseName) {
    try {
      var lease = client.leases().inNamespace(namespace).withName(leaseName);
      var current = lease.get();
      if (current != null) {
        adopt(lease, current, reference());
      }
    } catch (KubernetesClientException e) {
      LOG.warn("event=lease_adopt_failed lease={}/{} error=\"{}\"", namespace, leaseName, e.getMessage());
    }
  }
}
