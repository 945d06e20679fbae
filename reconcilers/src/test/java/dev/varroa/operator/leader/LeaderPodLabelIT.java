package dev.varroa.operator.leader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.operator.install.ChartRbac;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.ServiceAccountClient;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The webhook Service selects the operator pod labelled {@code varroa.dev/leader=true}: the lease's callbacks set
 * and clear that label on the replica's own pod, as the chart's ServiceAccount may.
 */
@WithKubeApiServer
class LeaderPodLabelIT {

  @Test
  void theLeaderLabelsItsPodAndDropsTheLabelWhenAnotherLeads(KubeApiServer kube) {
    ServiceAccountClient account = ChartRbac.installOperatorAccount(kube, ChartRbac.render(), ChartRbac.OPERATOR_ACCOUNT);
    kube.client().pods().inNamespace(ChartRbac.NAMESPACE).resource(new PodBuilder().withNewMetadata()
        .withName("varroa-operator-7d9f-abcde").withNamespace(ChartRbac.NAMESPACE)
        .addToLabels("app.kubernetes.io/component", "operator").endMetadata().withNewSpec().addNewContainer()
        .withName("operator").withImage("varroa/operator").endContainer().endSpec().build()).create();
    LeaderCallbacks callbacks = new LeaderPodLabel(account.client(), ChartRbac.NAMESPACE, "varroa-operator-7d9f-abcde")
        .callbacks();

    callbacks.onStartLeading();
    assertThat(labels(kube)).containsEntry(LeaderPodLabel.LABEL, "true").containsKey("app.kubernetes.io/component");
    callbacks.onNewLeader("varroa-operator-7d9f-abcde");
    assertThat(labels(kube)).containsEntry(LeaderPodLabel.LABEL, "true");
    callbacks.onNewLeader("varroa-operator-7d9f-fghij");
    assertThat(labels(kube)).doesNotContainKey(LeaderPodLabel.LABEL).containsKey("app.kubernetes.io/component");
    assertThat(account.forbidden()).isEmpty();
  }

  private static Map<String, String> labels(KubeApiServer kube) {
    Pod pod = kube.client().pods().inNamespace(ChartRbac.NAMESPACE).withName("varroa-operator-7d9f-abcde").get();
    return pod.getMetadata().getLabels();
  }
}
