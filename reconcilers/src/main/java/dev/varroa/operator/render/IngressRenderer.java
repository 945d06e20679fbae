package dev.varroa.operator.render;

import dev.varroa.operator.render.resolve.ResolvedController;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.IngressTLSBuilder;
import java.util.List;
import java.util.Optional;

/** The optional Ingress for the Jenkins web UI: rendered only when ingress.enabled is true. */
public final class IngressRenderer {
  private IngressRenderer() {}

  public static Optional<Ingress> render(RenderInput input) {
    ResolvedController controller = input.controller();
    ResolvedController.Ingress ingress = controller.ingress();
    if (!ingress.enabled() || ingress.host().isEmpty()) {
      return Optional.empty();
    }
    String host = ingress.host().get();
    return Optional.of(new IngressBuilder()
        .withMetadata(OwnedMetadata.of(input.names().ingress(), controller.namespace(), controller))
        .withNewSpec()
        .withIngressClassName(ingress.className().orElse(null))
        .withTls(ingress.tlsSecretName()
            .map(secret -> List.of(new IngressTLSBuilder().withHosts(host).withSecretName(secret).build())).orElse(null))
        .addNewRule().withHost(host).withNewHttp().addNewPath().withPath("/").withPathType("Prefix")
        .withNewBackend().withNewService().withName(input.names().service())
        .withNewPort().withName(JenkinsContainer.HTTP_PORT_NAME).endPort()
        .endService().endBackend().endPath().endHttp().endRule()
        .endSpec()
        .build());
  }
}
