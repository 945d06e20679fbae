package dev.varroa.benchmarks.latency;

import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.operator.bundle.ComposedBundleReconciler;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Instant;

/** Flux's way: a merge patch of {@code reconcile.fluxcd.io/requestedAt} on the ComposedBundle, a new value each time. */
public final class RequestedAtTrigger implements CommitTrigger {

  private final KubernetesClient client;
  private final String namespace;
  private final String bundle;

  public RequestedAtTrigger(KubernetesClient client, String namespace, String bundle) {
    this.client = client;
    this.namespace = namespace;
    this.bundle = bundle;
  }

  @Override
  public void fire(String commitId) {
    // microseconds in the value: two requests never carry the same one
    client.resources(ComposedBundle.class).inNamespace(namespace).withName(bundle).patch(
        PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"annotations\":{\""
            + ComposedBundleReconciler.REQUESTED_AT + "\":\"" + Instant.now() + "\"}}}");
  }
}
