package dev.varroa.operator.render;

import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.operator.render.resolve.ResolvedController;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;

/**
 * The Service in front of Jenkins: http for people and WebSocket agents, agent for the direct tunnel. While the
 * inactivity policy has it routed to the waker it selects no pod: the waker's EndpointSlice then receives its http
 * traffic (docs/hibernation.md).
 */
public final class ServiceRenderer {
  private ServiceRenderer() {}

  public static Service render(RenderInput input) {
    ResolvedController controller = input.controller();
    return new ServiceBuilder()
        .withMetadata(OwnedMetadata.of(input.names().service(), controller.namespace(), controller))
        .withNewSpec()
        .withType("ClusterIP")
        .withSelector(input.parking().serviceToWaker() ? null : ControllerLabels.selector(controller.name()))
        .addNewPort().withName(JenkinsContainer.HTTP_PORT_NAME).withPort(JenkinsContainer.HTTP_PORT)
        .withTargetPort(new IntOrString(JenkinsContainer.HTTP_PORT_NAME)).withProtocol("TCP").endPort()
        .addNewPort().withName(JenkinsContainer.AGENT_PORT_NAME).withPort(JenkinsContainer.AGENT_PORT)
        .withTargetPort(new IntOrString(JenkinsContainer.AGENT_PORT_NAME)).withProtocol("TCP").endPort()
        .endSpec()
        .build();
  }
}
