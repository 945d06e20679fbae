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
 * The whole Controller lifecycle of {@link ControllerReconcilerIT}, with the operator acting as the chart's
 * ServiceAccount (impersonation) under the chart's rendered RBAC only, leader-elected in the release namespace,
 * after creating the installation Secrets there. The API server runs --authorization-mode=Node,RBAC; every 403 is
 * recorded, and none may occur.
 */
class ControllerLifecycleAsChartServiceAccountIT extends ControllerReconcilerIT {
  private ServiceAccountClient account;

  @Override
  protected KubernetesClient operatorClient(KubeApiServer kube) {
    account = ChartRbac.installOperatorAccount(kube, ChartRbac.render(), ChartRbac.OPERATOR_ACCOUNT);
    try {
      new InstallationSecrets(account.client(), new InstallationSettings(ChartRbac.NAMESPACE, InstallMode.FULL, "core",
          List.of("varroa-nats.varroa-system.svc"), List.of(), Optional.of("varroa-webhook-secret")),
          Clock.systemUTC()).ensure();
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
    assertThat(account.forbidden()).as("requests the chart's RBAC refused to " + account.user()).isEmpty();
  }
}
