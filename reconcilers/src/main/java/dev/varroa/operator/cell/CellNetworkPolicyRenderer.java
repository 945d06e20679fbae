package dev.varroa.operator.cell;

import dev.varroa.api.v1alpha1.CellPool;
import dev.varroa.operator.render.UpdateCenterRenderer;
import dev.varroa.operator.render.naming.ControllerLabels;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRuleBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The egress policy of a pool's cells (networkPolicy.cellIsolation): the Jenkins pods of the cells reach only what
 * the chart lists and the update centers the operator runs. Ingress is left alone: browsers, webhooks and agents
 * reach a cell as they reach any controller. Pure.
 */
public final class CellNetworkPolicyRenderer {
  private CellNetworkPolicyRenderer() {}

  public static String name(String pool) {
    return "varroa-cells-" + pool;
  }

  /** @param cells the pool's cell Controllers by name, those draining included */
  public static NetworkPolicy render(CellPool pool, List<String> cells, CellIsolation isolation) {
    List<NetworkPolicyEgressRule> egress = new ArrayList<>(isolation.egress());
    // the update centers this operator runs (UpdateCenterRenderer), in any namespace
    egress.add(new NetworkPolicyEgressRuleBuilder().addNewTo()
        .withNamespaceSelector(new LabelSelectorBuilder().build())
        .withPodSelector(new LabelSelectorBuilder().withMatchLabels(Map.of(ControllerLabels.NAME,
            UpdateCenterRenderer.NAME_VALUE, ControllerLabels.MANAGED_BY, ControllerLabels.MANAGED_BY_VALUE)).build())
        .endTo().addNewPort().withPort(new IntOrString(UpdateCenterRenderer.HTTP_PORT)).withProtocol("TCP").endPort()
        .build());
    return new NetworkPolicyBuilder()
        .withNewMetadata().withName(name(pool.getMetadata().getName()))
        .withNamespace(pool.getMetadata().getNamespace())
        .withLabels(Map.of(CellRenderer.POOL_LABEL, pool.getMetadata().getName(), ControllerLabels.MANAGED_BY,
            ControllerLabels.MANAGED_BY_VALUE))
        .withOwnerReferences(CellRenderer.ownedBy(pool))
        .endMetadata()
        .withNewSpec()
        .withNewPodSelector()
        .addToMatchLabels(ControllerLabels.NAME, ControllerLabels.NAME_VALUE)
        .addNewMatchExpression().withKey(ControllerLabels.CONTROLLER).withOperator("In")
        .withValues(cells.stream().map(ControllerLabels::value).sorted().toList()).endMatchExpression()
        .endPodSelector()
        .withPolicyTypes("Egress")
        .withEgress(egress)
        .endSpec().build();
  }
}
