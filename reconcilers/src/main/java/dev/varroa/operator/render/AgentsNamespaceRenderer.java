package dev.varroa.operator.render;

import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.operator.render.naming.ControllerNames;
import dev.varroa.operator.render.resolve.ResolvedController;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The agents namespace (seed 004): the namespace itself, a RoleBinding there that gives the Jenkins
 * ServiceAccount the chart's ClusterRole {@value #AGENTS_CLUSTER_ROLE} (its only rights anywhere), the pull
 * secrets on that namespace's default ServiceAccount, and a known_hosts ConfigMap pipelines can mount for
 * git over ssh. The binding references the chart's ClusterRole rather than a Role of the operator's own, so
 * the operator needs only {@code bind} on it, not the pod rights it grants (Kubernetes' escalation check).
 *
 * <p>The namespace, its default ServiceAccount and known-hosts may be shared by every Controller
 * of a namespace (the default is {@code <controller-namespace>-jobs}), so they carry only
 * Varroa's managed-by label, not one Controller's.
 */
public final class AgentsNamespaceRenderer {
  /** The key pipelines mount, as ssh expects the file to be called. */
  public static final String KNOWN_HOSTS_KEY = "known_hosts";
  static final String CORE = "";

  /** The chart's ClusterRole with the agent-pod rights (chart/templates/rbac.yaml), bound in each agents namespace. */
  public static final String AGENTS_CLUSTER_ROLE = "varroa-jenkins-agents";

  /**
   * What the Kubernetes plugin needs: run agent pods, exec into them, read their logs and events, claim workspaces.
   * The chart's {@value #AGENTS_CLUSTER_ROLE} holds exactly these rules ({@code ChartIT} compares them).
   */
  public static final List<PolicyRule> RULES = List.of(
      rule("pods", "create", "delete", "get", "list", "patch", "update", "watch"),
      rule("pods/exec", "create", "get"),
      rule("pods/log", "get", "list", "watch"),
      rule("events", "get", "list", "watch"),
      rule("persistentvolumeclaims", "create", "delete", "get", "list", "watch"));

  private AgentsNamespaceRenderer() {}

  /** In apply order: Namespace, RoleBinding, then the default ServiceAccount and known-hosts when set. */
  public static List<HasMetadata> render(RenderInput input) {
    ResolvedController controller = input.controller();
    ControllerNames names = input.names();
    String namespace = controller.agents().namespace();
    List<HasMetadata> objects = new ArrayList<>();
    objects.add(namespace(namespace));
    objects.add(roleBinding(input));
    if (!controller.agents().imagePullSecrets().isEmpty()) {
      objects.add(new ServiceAccountBuilder()
          .withMetadata(shared(ControllerNames.AGENTS_DEFAULT_SERVICE_ACCOUNT, namespace))
          .withImagePullSecrets(controller.agents().imagePullSecrets().stream().map(LocalObjectReference::new).toList())
          .build());
    }
    controller.agents().knownHosts().ifPresent(knownHosts -> objects.add(new ConfigMapBuilder()
        .withMetadata(shared(ControllerNames.KNOWN_HOSTS_CONFIG_MAP, namespace))
        .withData(Map.of(KNOWN_HOSTS_KEY, knownHosts))
        .build()));
    return objects;
  }

  private static RoleBinding roleBinding(RenderInput input) {
    ResolvedController controller = input.controller();
    ControllerNames names = input.names();
    return new RoleBindingBuilder()
        .withMetadata(OwnedMetadata.of(names.agentsRoleBinding(), controller.agents().namespace(), controller))
        .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("ClusterRole").withName(AGENTS_CLUSTER_ROLE)
        .endRoleRef()
        .addNewSubject().withKind("ServiceAccount").withName(names.serviceAccount())
        .withNamespace(controller.namespace()).endSubject()
        .build();
  }

  private static Namespace namespace(String name) {
    return new NamespaceBuilder().withMetadata(new ObjectMetaBuilder().withName(name)
        .addToLabels(ControllerLabels.MANAGED_BY, ControllerLabels.MANAGED_BY_VALUE).build()).build();
  }

  private static ObjectMeta shared(String name, String namespace) {
    return new ObjectMetaBuilder().withName(name).withNamespace(namespace)
        .addToLabels(ControllerLabels.MANAGED_BY, ControllerLabels.MANAGED_BY_VALUE).build();
  }

  private static PolicyRule rule(String resource, String... verbs) {
    return new PolicyRuleBuilder().withApiGroups(CORE).withResources(resource).withVerbs(verbs).build();
  }
}
