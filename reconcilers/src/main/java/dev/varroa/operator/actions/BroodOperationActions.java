package dev.varroa.operator.actions;

import dev.varroa.api.v1alpha1.BroodOperation;
import dev.varroa.api.v1alpha1.BroodOperationStatus;
import dev.varroa.api.v1alpha1.Names;
import dev.varroa.protocol.bus.v1.ActionRequest;
import dev.varroa.protocol.bus.v1.ActionResult;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.EnumSet;
import java.util.Set;

/**
 * The BroodOperation actions the BFF sends (docs/actions.md): create one from a manifest, pause and resume it
 * (spec.suspend), cancel it (spec.cancel), delete it. The engine (BroodOperationReconciler) does the rest; this class
 * only writes what a person would write with kubectl.
 */
public final class BroodOperationActions {

  public static final String CREATE = "broodop-create";
  public static final String PAUSE = "broodop-pause";
  public static final String RESUME = "broodop-resume";
  public static final String CANCEL = "broodop-cancel";
  public static final String DELETE = "broodop-delete";
  public static final Set<String> VERBS = Set.of(CREATE, PAUSE, RESUME, CANCEL, DELETE);
  private static final Set<BroodOperationStatus.Phase> FINAL = EnumSet.of(BroodOperationStatus.Phase.Succeeded,
      BroodOperationStatus.Phase.Failed, BroodOperationStatus.Phase.Cancelled);

  private final KubernetesClient client;
  private final String cluster;

  public BroodOperationActions(KubernetesClient client, String cluster) {
    this.client = client;
    this.cluster = cluster;
  }

  /** What is wrong with the request before anything runs, or null. */
  public String problem(ActionRequest request) {
    if (CREATE.equals(request.getVerb())) {
      return request.getManifestYaml().isBlank()
          ? "broodop-create needs manifest_yaml: the BroodOperation to create (varroactl broodop create -f FILE)"
          : null;
    }
    if (request.getNamespace().isEmpty() || request.getName().isEmpty()) {
      return request.getVerb() + " needs the BroodOperation's namespace and name (target.namespace, target.name)";
    }
    return null;
  }

  /** Runs one verb of {@link #VERBS}; the outcome is done, or refused with the reason. */
  public ActionResult.Builder act(ActionRequest request) {
    return switch (request.getVerb()) {
      case CREATE -> create(request);
      case PAUSE -> suspend(request, true);
      case RESUME -> suspend(request, false);
      case CANCEL -> cancel(request);
      case DELETE -> delete(request);
      default -> refused(request, "verb '" + request.getVerb() + "' is not a BroodOperation action");
    };
  }

  private ActionResult.Builder create(ActionRequest request) {
    GenericKubernetesResource generic;
    try {
      Object parsed = client.getKubernetesSerialization().unmarshal(request.getManifestYaml());
      if (!(parsed instanceof io.fabric8.kubernetes.api.model.HasMetadata object)) {
        return refused(request, "the manifest is not one Kubernetes object; broodop create takes one BroodOperation"
            + " (apiVersion " + Names.API_VERSION + ", kind BroodOperation)");
      }
      generic = client.getKubernetesSerialization().convertValue(object, GenericKubernetesResource.class);
    } catch (RuntimeException e) {
      return refused(request, "the manifest cannot be read: " + e.getMessage() + "; give one BroodOperation in YAML");
    }
    if (!"BroodOperation".equals(generic.getKind()) || !Names.API_VERSION.equals(generic.getApiVersion())) {
      String kind = generic.getKind() == null ? "object without kind" : generic.getKind();
      return refused(request, "the manifest is a " + kind + " (" + generic.getApiVersion() + "), not a"
          + " BroodOperation; broodop create takes only apiVersion " + Names.API_VERSION + ", kind BroodOperation");
    }
    BroodOperation operation = client.getKubernetesSerialization().convertValue(generic, BroodOperation.class);
    String namespace = operation.getMetadata().getNamespace();
    if (namespace == null || namespace.isEmpty()) {
      namespace = request.getNamespace().isEmpty() ? "default" : request.getNamespace();
      operation.getMetadata().setNamespace(namespace);
    } else if (!request.getNamespace().isEmpty() && !namespace.equals(request.getNamespace())) {
      return refused(request, "the manifest's metadata.namespace " + namespace + " is not the namespace the action"
          + " names (" + request.getNamespace() + "); drop -n or make them agree");
    }
    String name = operation.getMetadata().getName();
    if ((name == null || name.isEmpty()) && (operation.getMetadata().getGenerateName() == null
        || operation.getMetadata().getGenerateName().isEmpty())) {
      return refused(request, "the BroodOperation has no metadata.name (nor metadata.generateName); name it");
    }
    // what the manifest says of status is the engine's to write, never a person's
    operation.setStatus(null);
    operation.getMetadata().setResourceVersion(null);
    operation.getMetadata().setUid(null);
    try {
      BroodOperation created = client.resource(operation).create();
      return done(request, "BroodOperation " + namespace + "/" + created.getMetadata().getName() + " created in"
          + " cluster " + cluster + (Boolean.TRUE.equals(operation.getSpec() == null ? null
          : operation.getSpec().dryRun) ? " as a dry run: it lists its targets and touches nothing" : ""))
          .setNamespace(namespace).setName(created.getMetadata().getName());
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        return refused(request, "BroodOperation " + namespace + "/" + name + " already exists in cluster " + cluster
            + "; choose another metadata.name").setNamespace(namespace).setName(name);
      }
      if (e.getCode() == 422 || e.getCode() == 400 || e.getCode() == 404) {
        return refused(request, "the API server of cluster " + cluster + " refused BroodOperation " + namespace + "/"
            + (name == null ? operation.getMetadata().getGenerateName() : name) + ": " + apiMessage(e));
      }
      throw e;
    }
  }

  private ActionResult.Builder suspend(ActionRequest request, boolean suspend) {
    BroodOperation current = current(request);
    if (current == null) {
      return missing(request);
    }
    String which = request.getNamespace() + "/" + request.getName();
    if (finished(current)) {
      return refused(request, "BroodOperation " + which + " has finished (" + current.getStatus().phase + "); there is"
          + " nothing to " + (suspend ? "pause" : "resume")).setNamespace(request.getNamespace())
          .setName(request.getName());
    }
    if (current.getSpec() != null && Boolean.TRUE.equals(current.getSpec().cancel)) {
      return refused(request, "BroodOperation " + which + " is cancelled; a cancelled operation stays cancelled")
          .setNamespace(request.getNamespace()).setName(request.getName());
    }
    patch(request, "{\"spec\":{\"suspend\":" + suspend + "}}");
    return done(request, "BroodOperation " + which + (suspend ? " paused: steps under way finish, no step starts"
        : " resumed")).setNamespace(request.getNamespace()).setName(request.getName());
  }

  private ActionResult.Builder cancel(ActionRequest request) {
    BroodOperation current = current(request);
    if (current == null) {
      return missing(request);
    }
    String which = request.getNamespace() + "/" + request.getName();
    if (finished(current)) {
      return refused(request, "BroodOperation " + which + " has finished (" + current.getStatus().phase + "); there is"
          + " nothing to cancel").setNamespace(request.getNamespace()).setName(request.getName());
    }
    patch(request, "{\"spec\":{\"cancel\":true}}");
    return done(request, "BroodOperation " + which + " cancelled: no step starts again; targets not finished become"
        + " Cancelled").setNamespace(request.getNamespace()).setName(request.getName());
  }

  private ActionResult.Builder delete(ActionRequest request) {
    if (current(request) == null) {
      return missing(request);
    }
    operation(request).delete();
    return done(request, "BroodOperation " + request.getNamespace() + "/" + request.getName() + " deleted")
        .setNamespace(request.getNamespace()).setName(request.getName());
  }

  private void patch(ActionRequest request, String mergePatch) {
    operation(request).patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
  }

  private BroodOperation current(ActionRequest request) {
    return operation(request).get();
  }

  private Resource<BroodOperation> operation(ActionRequest request) {
    return client.resources(BroodOperation.class).inNamespace(request.getNamespace()).withName(request.getName());
  }

  private static boolean finished(BroodOperation operation) {
    return operation.getStatus() != null && operation.getStatus().phase != null
        && FINAL.contains(operation.getStatus().phase);
  }

  private ActionResult.Builder missing(ActionRequest request) {
    return refused(request, "BroodOperation " + request.getNamespace() + "/" + request.getName() + " does not exist in"
        + " cluster " + cluster + "; varroactl broodop list lists the operations");
  }

  private static String apiMessage(KubernetesClientException e) {
    return e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
  }

  private static ActionResult.Builder done(ActionRequest request, String message) {
    return ActionResult.newBuilder().setRequestId(request.getRequestId()).setOutcome(ClusterActionResponder.DONE)
        .setMessage(message);
  }

  private static ActionResult.Builder refused(ActionRequest request, String message) {
    return ActionResult.newBuilder().setRequestId(request.getRequestId()).setOutcome(ClusterActionResponder.REFUSED)
        .setMessage(message);
  }
}
