package dev.varroa.operator.install;

import dev.varroa.testfixtures.helm.HelmChart;
import dev.varroa.testfixtures.helm.RenderedManifests;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.ServiceAccountClient;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.SubjectBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.function.Predicate;

/**
 * The operator's RBAC exactly as the chart renders it, installed into a test API server for a ServiceAccount of
 * a given name, optionally with one rule taken out: the proof that the rules suffice and that each is needed.
 */
public final class ChartRbac {
  public static final String NAMESPACE = "varroa-system";
  public static final String OPERATOR_ACCOUNT = "varroa-operator";
  public static final String AGENTS_CLUSTER_ROLE = "varroa-jenkins-agents";
  /** The member cluster.name the hive render is made for. */
  public static final String HIVE_CLUSTER = "member-eu1";
  private static RenderedManifests rendered;
  private static RenderedManifests renderedHive;

  private ChartRbac() {
  }

  /** {@code helm template varroa chart -n varroa-system} with the default values, rendered once per JVM. */
  public static synchronized RenderedManifests render() {
    if (rendered == null) {
      try (HelmChart chart = HelmChart.varroa()) {
        rendered = chart.template(HelmChart.Render.in(NAMESPACE));
      }
    }
    return rendered;
  }

  /**
   * {@code helm template} of a member: values-hive.yaml with cluster.name and bus.url, as docs/member-clusters.md
   * installs it, rendered once per JVM.
   */
  public static synchronized RenderedManifests renderHive() {
    if (renderedHive == null) {
      try (HelmChart chart = HelmChart.varroa()) {
        renderedHive = chart.template(HelmChart.Render.in(NAMESPACE).values(java.nio.file.Path.of("values-hive.yaml"))
            .set("cluster.name", HIVE_CLUSTER).set("bus.url", "tls://nats.example.com:4222")
            .set("networkPolicy.coreNatsEgress.cidrs", "{203.0.113.10/32}"));
      }
    }
    return renderedHive;
  }

  /** The chart's ClusterRole and namespace Role for the operator. */
  public record Rules(List<PolicyRule> cluster, List<PolicyRule> namespaced) {
    /** These rules without the first one that the predicate matches, in either list. */
    public Rules without(Predicate<PolicyRule> rule) {
      PolicyRule found = cluster.stream().filter(rule).findFirst()
          .or(() -> namespaced.stream().filter(rule).findFirst())
          .orElseThrow(() -> new IllegalArgumentException("the chart's operator RBAC has no such rule"));
      return new Rules(cluster.stream().filter(r -> r != found).toList(),
          namespaced.stream().filter(r -> r != found).toList());
    }
  }

  public static Rules rules(RenderedManifests manifests) {
    return new Rules(manifests.get(ClusterRole.class, OPERATOR_ACCOUNT).getRules(),
        manifests.get(Role.class, OPERATOR_ACCOUNT).getRules());
  }

  /** A rule that names this resource (e.g. "statefulsets", "controllers/status", "leases"). */
  public static Predicate<PolicyRule> naming(String resource) {
    return rule -> rule.getResources().contains(resource);
  }

  /** Installs the chart's rules for a ServiceAccount {@code account} and returns a client acting as it. */
  public static ServiceAccountClient installOperatorAccount(KubeApiServer kube, RenderedManifests manifests,
      String account) {
    return installOperatorAccount(kube, rules(manifests), account);
  }

  /** Installs these rules (the chart's, or the chart's minus one) for a ServiceAccount {@code account}. */
  public static ServiceAccountClient installOperatorAccount(KubeApiServer kube, Rules rules, String account) {
    KubernetesClient admin = kube.client();
    if (admin.namespaces().withName(NAMESPACE).get() == null) {
      admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
          .create();
    }
    admin.serviceAccounts().inNamespace(NAMESPACE).resource(new ServiceAccountBuilder().withNewMetadata()
        .withName(account).withNamespace(NAMESPACE).endMetadata().build()).serverSideApply();
    var subject = new SubjectBuilder().withKind("ServiceAccount").withName(account).withNamespace(NAMESPACE).build();
    admin.rbac().clusterRoles().resource(new ClusterRoleBuilder().withNewMetadata().withName(account).endMetadata()
        .withRules(rules.cluster()).build()).serverSideApply();
    admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata().withName(account)
        .endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", account).withSubjects(subject)
        .build()).serverSideApply();
    // the agents ClusterRole the operator binds in agents namespaces (it holds bind on it, not its rights)
    admin.rbac().clusterRoles().resource(render().get(ClusterRole.class, AGENTS_CLUSTER_ROLE)).serverSideApply();
    admin.rbac().roles().inNamespace(NAMESPACE).resource(new RoleBuilder().withNewMetadata().withName(account)
        .withNamespace(NAMESPACE).endMetadata().withRules(rules.namespaced()).build()).serverSideApply();
    admin.rbac().roleBindings().inNamespace(NAMESPACE).resource(new RoleBindingBuilder().withNewMetadata()
        .withName(account).withNamespace(NAMESPACE).endMetadata()
        .withNewRoleRef("rbac.authorization.k8s.io", "Role", account).withSubjects(subject).build()).serverSideApply();
    return new ServiceAccountClient(kube, NAMESPACE, account);
  }

  /** The chart binds exactly these roles to the operator's account; a test would miss any other binding. */
  public static List<String> bindingsOf(RenderedManifests manifests) {
    return java.util.stream.Stream.concat(
        manifests.all(ClusterRoleBinding.class).stream().map(b -> "ClusterRoleBinding/" + b.getMetadata().getName()
            + "->" + b.getRoleRef().getKind() + "/" + b.getRoleRef().getName()),
        manifests.all(RoleBinding.class).stream().map(b -> "RoleBinding/" + b.getMetadata().getName()
            + "->" + b.getRoleRef().getKind() + "/" + b.getRoleRef().getName())).sorted().toList();
  }
}
