package dev.varroa.operator.actions;

import dev.varroa.api.v1alpha1.CellPool;
import dev.varroa.api.v1alpha1.Names;
import dev.varroa.protocol.bus.v1.ActionRequest;
import dev.varroa.protocol.bus.v1.ActionResult;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;

/**
 * The cellpool-scale action the BFF sends (docs/actions.md): a merge patch of one CellPool's scale subresource
 * (spec.replicas), what `kubectl scale cellpool` writes. The pool's reconciler does the rest (a scale-down drains the
 * cells that go first).
 */
public final class CellPoolScaleAction {

  public static final String VERB = "cellpool-scale";
  /** The CRD's bound on spec.replicas (CellPoolSpec @Max). */
  public static final int MAX_REPLICAS = 500;

  private final KubernetesClient client;
  private final String cluster;

  public CellPoolScaleAction(KubernetesClient client, String cluster) {
    this.client = client;
    this.cluster = cluster;
  }

  /** What is wrong with the request before anything runs, or null. */
  public String problem(ActionRequest request) {
    if (request.getNamespace().isEmpty() || request.getName().isEmpty()) {
      return VERB + " needs the CellPool's namespace and name (target.namespace, target.name)";
    }
    if (!request.hasReplicas()) {
      return VERB + " needs replicas: the CellPool's new spec.replicas (varroactl scale cellpool NAME --replicas N)";
    }
    if (request.getReplicas() > MAX_REPLICAS) {
      return "replicas " + Integer.toUnsignedString(request.getReplicas()) + " is more than a CellPool may have ("
          + MAX_REPLICAS + "); give 0 to " + MAX_REPLICAS;
    }
    return null;
  }

  /** Writes spec.replicas through the scale subresource; refused (not found) when the pool does not exist. */
  public ActionResult.Builder act(ActionRequest request) {
    String which = request.getNamespace() + "/" + request.getName();
    CellPool pool = client.resources(CellPool.class).inNamespace(request.getNamespace()).withName(request.getName())
        .get();
    if (pool == null) {
      return refused(request, "CellPool " + which + " does not exist in cluster " + cluster + "; varroactl get"
          + " cellpools lists the pools").setNotFound(true);
    }
    Integer before = pool.getSpec() == null ? null : pool.getSpec().replicas;
    int replicas = request.getReplicas();
    patchScale(request.getNamespace(), request.getName(), replicas);
    String change = before != null && before == replicas ? "already has " + replicas + " cells wanted"
        : "scaled from " + (before == null ? "the default" : before) + " to " + replicas + " cells"
            + (before != null && replicas < before ? "; the cells that go move their teams to the others first" : "");
    return ActionResult.newBuilder().setRequestId(request.getRequestId()).setOutcome(ClusterActionResponder.DONE)
        .setMessage("CellPool " + which + " in cluster " + cluster + " " + change)
        .setNamespace(request.getNamespace()).setName(request.getName());
  }

  /** A JSON merge patch of {namespace}/{name}/scale: the client's scale() reads then replaces, this writes one field. */
  private void patchScale(String namespace, String name, int replicas) {
    String url = client.getMasterUrl().toString().replaceAll("/+$", "") + "/apis/" + Names.GROUP + "/" + Names.VERSION
        + "/namespaces/" + encode(namespace) + "/cellpools/" + encode(name) + "/scale";
    HttpRequest patch = client.getHttpClient().newHttpRequestBuilder().uri(url)
        .method("PATCH", "application/merge-patch+json", "{\"spec\":{\"replicas\":" + replicas + "}}").build();
    HttpResponse<String> response;
    try {
      response = client.getHttpClient().sendAsync(patch, String.class).get();
    } catch (ExecutionException e) {
      throw new KubernetesClientException("patching the scale of CellPool " + namespace + "/" + name + " failed: "
          + e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KubernetesClientException("interrupted while scaling CellPool " + namespace + "/" + name);
    }
    if (response.code() >= 300) {
      throw new KubernetesClientException("the API server of cluster " + cluster + " answered " + response.code()
          + " to the scale of CellPool " + namespace + "/" + name + ": " + response.body()
          + (response.code() == 403 ? "; the operator's ClusterRole needs patch on cellpools/scale" : ""));
    }
  }

  private static String encode(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8);
  }

  private static ActionResult.Builder refused(ActionRequest request, String message) {
    return ActionResult.newBuilder().setRequestId(request.getRequestId()).setOutcome(ClusterActionResponder.REFUSED)
        .setMessage(message);
  }
}
