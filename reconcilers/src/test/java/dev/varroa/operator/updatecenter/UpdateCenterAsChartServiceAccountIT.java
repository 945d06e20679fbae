package dev.varroa.operator.updatecenter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.operator.install.ChartRbac;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.ServiceAccountClient;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;

/**
 * The managed UpdateCenter of {@link UpdateCenterReconcilerIT} with the operator acting as the chart's
 * ServiceAccount in the release namespace, under the chart's RBAC only: no request may be refused.
 */
class UpdateCenterAsChartServiceAccountIT extends UpdateCenterReconcilerIT {
  private ServiceAccountClient account;

  @Override
  protected KubernetesClient operatorClient(KubeApiServer kube) {
    account = ChartRbac.installOperatorAccount(kube, ChartRbac.render(), ChartRbac.OPERATOR_ACCOUNT);
    return account.client();
  }

  @Override
  protected String operatorNamespace() {
    return ChartRbac.NAMESPACE;
  }

  @AfterAll
  void noRequestOfTheOperatorWasForbidden() {
    assertThat(account.forbidden()).as("requests the chart's RBAC refused to " + account.user()).isEmpty();
  }
}
