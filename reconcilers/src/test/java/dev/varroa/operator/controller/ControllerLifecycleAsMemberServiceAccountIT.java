package dev.varroa.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.operator.install.ChartRbac;
import dev.varroa.operator.install.InstallMode;
import dev.varroa.operator.install.InstallationSecrets;
import dev.varroa.operator.install.InstallationSettings;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.ServiceAccountClient;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;

/**
 * The RBAC proof of {@link ControllerLifecycleAsChartServiceAccountIT} for a member cluster: the whole Controller
 * lifecycle of {@link ControllerReconcilerIT} with the operator acting as the ServiceAccount of a hive install
 * (values-hive.yaml) under the RBAC that render gives it, after creating the hive installation Secrets. The member's
 * gateway has no API access (its pod mounts no token), so the operator's account is the member's only one with
 * rights. No request may be forbidden.
 */
class ControllerLifecycleAsMemberServiceAccountIT extends ControllerReconcilerIT {
  private ServiceAccountClient account;

  @Override
  protected KubernetesClient operatorClient(KubeApiServer kube) {
    account = ChartRbac.installOperatorAccount(kube, ChartRbac.renderHive(), ChartRbac.OPERATOR_ACCOUNT);
    try {
      new InstallationSecrets(account.client(), new InstallationSettings(ChartRbac.NAMESPACE, InstallMode.HIVE,
          ChartRbac.HIVE_CLUSTER, List.of(), List.of(), Optional.of("varroa-webhook-secret")), Clock.systemUTC())
          .ensure();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return account.client();
  }

  @Override
  protected String leaseNamespace() {
    return ChartRbac.NAMESPACE;
  }

  @AfterAll
  void noRequestOfTheOperatorWasForbidden() {
    assertThat(account.forbidden()).as("requests the hive render's RBAC refused to " + account.user()).isEmpty();
  }
}
