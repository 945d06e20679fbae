package dev.varroa.operator.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.operator.OperatorSettings;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.ServiceAccountClient;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each of the chart's operator rules is needed: with one taken out, the operator running as that ServiceAccount
 * is refused (403) on the resource the rule covers as soon as a Controller appears. The complete rules run the
 * whole lifecycle without a 403 ({@code ControllerLifecycleAsChartServiceAccountIT}).
 */
@WithKubeApiServer
class ChartRbacRuleRemovalIT {
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  @BeforeAll
  static void profile(KubeApiServer kube) {
    StarterProfile.install(kube.client(), null);
  }

  @Test
  void theChartBindsTheOperatorAccountToItsTwoRolesOnly() {
    assertThat(ChartRbac.bindingsOf(ChartRbac.render())).containsExactly(
        "ClusterRoleBinding/varroa-operator->ClusterRole/varroa-operator",
        "RoleBinding/varroa-operator->Role/varroa-operator");
  }

  @ParameterizedTest(name = "without the rule for {0}")
  @CsvSource({
      "statefulsets, /statefulsets",
      "controllers/status, /status",
      "secrets, /secrets",
      "persistentvolumeclaims, /persistentvolumeclaims",
      "rolebindings, /rolebindings",
      "endpointslices, /endpointslices",
      "leases, /leases"})
  void withoutOneRuleTheOperatorIsRefusedOnWhatItCovers(String resource, String refusedPath, KubeApiServer kube,
      @TempDir Path cache) {
    String slug = resource.replaceAll("[^a-z]", "-");
    ServiceAccountClient account = ChartRbac.installOperatorAccount(kube,
        ChartRbac.rules(ChartRbac.render()).without(ChartRbac.naming(resource)), "operator-without-" + slug);
    KubernetesClient admin = kube.client();
    String namespace = "without-" + slug;
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .create();
    VarroaOperator operator = new VarroaOperator(account.client(), OperatorSettings.defaults(cache)
        .withLeaseNamespace("leases".equals(resource) ? ChartRbac.NAMESPACE : null), null);
    // start() may itself fail on a refused informer; the refusal is what this test waits for either way
    CompletableFuture<Void> started = CompletableFuture.runAsync(operator::start);
    try {
      admin.resource(YAML.unmarshal("""
          apiVersion: varroa.dev/v1alpha1
          kind: Controller
          metadata: {name: team, namespace: %s}
          spec: {versionProfileRef: {name: lts}}
          """.formatted(namespace), Controller.class)).create();

      // refused by the API server (403), or by java-operator-sdk's own access review before it asks for the Lease
      try {
        await().atMost(DEADLINE).until(() -> account.forbidden().stream().anyMatch(r -> r.contains(refusedPath))
            || started.isCompletedExceptionally() && causeOf(started).contains(singular(resource)));
      } catch (org.awaitility.core.ConditionTimeoutException e) {
        throw new AssertionError("no 403 on " + refusedPath + "; refused: " + account.forbidden()
            + (started.isCompletedExceptionally() ? "; start failed: " + causeOf(started) : ""), e);
      }
    } finally {
      started.handle((v, e) -> null).join();
      operator.close();
    }
  }

  // "leases" -> "lease": java-operator-sdk's message says "no permission to lease resource"
  private static String singular(String resource) {
    return resource.replaceAll("/.*", "").replaceAll("s$", "");
  }

  private static String causeOf(CompletableFuture<Void> started) {
    return started.handle((v, e) -> {
      StringBuilder messages = new StringBuilder();
      for (Throwable t = e; t != null; t = t.getCause()) {
        messages.append(t.getMessage()).append(' ');
      }
      return messages.toString().toLowerCase(java.util.Locale.ROOT);
    }).join();
  }
}
