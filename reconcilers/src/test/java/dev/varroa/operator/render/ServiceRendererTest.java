package dev.varroa.operator.render;

import static dev.varroa.operator.render.RenderFixtures.input;
import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.operator.render.naming.ControllerLabels;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import org.junit.jupiter.api.Test;

class ServiceRendererTest {
  @Test
  void exposesHttpAndAgentPortsOfTheControllerPod() {
    Service service = ServiceRenderer.render(input(""));

    assertThat(service.getMetadata().getName()).isEqualTo("team-a-1b4e28ba");
    assertThat(service.getSpec().getPorts()).extracting(p -> p.getName() + "=" + p.getPort())
        .containsExactly("http=8080", "agent=50000");
    assertThat(service.getSpec().getSelector()).isEqualTo(ControllerLabels.selector("team-a"));
  }

  @Test
  void selectsNoPodWhileRoutedToTheWakerSoTheWakersEndpointSliceServesIt() {
    Service parked = ServiceRenderer.render(input("").withParking(new Parking(true, true)));
    Service waking = ServiceRenderer.render(input("").withParking(new Parking(false, true)));
    Service drained = ServiceRenderer.render(input("").withParking(new Parking(true, false)));

    assertThat(parked.getSpec().getSelector()).isNullOrEmpty();
    assertThat(RenderFixtures.YAML.asYaml(parked)).doesNotContain("selector");
    assertThat(waking.getSpec().getSelector()).isNullOrEmpty();
    assertThat(parked.getSpec().getPorts()).extracting(p -> p.getName() + "=" + p.getPort())
        .containsExactly("http=8080", "agent=50000");
    assertThat(drained.getSpec().getSelector()).isEqualTo(ControllerLabels.selector("team-a"));
  }

  @Test
  void rendersIngressWithHostClassAndTls() {
    Ingress ingress = IngressRenderer.render(input(
        "ingress: {enabled: true, host: jenkins.example.com, className: nginx, tls: {secretName: jenkins-tls}}\n"))
        .orElseThrow();

    assertThat(ingress.getSpec().getIngressClassName()).isEqualTo("nginx");
    assertThat(ingress.getSpec().getRules()).singleElement().satisfies(rule -> {
      assertThat(rule.getHost()).isEqualTo("jenkins.example.com");
      assertThat(rule.getHttp().getPaths().get(0).getBackend().getService().getName()).isEqualTo("team-a-1b4e28ba");
      assertThat(rule.getHttp().getPaths().get(0).getBackend().getService().getPort().getName()).isEqualTo("http");
    });
    assertThat(ingress.getSpec().getTls()).singleElement().satisfies(tls -> {
      assertThat(tls.getHosts()).containsExactly("jenkins.example.com");
      assertThat(tls.getSecretName()).isEqualTo("jenkins-tls");
    });
  }

  @Test
  void rendersNoIngressWhenDisabled() {
    assertThat(IngressRenderer.render(input("ingress: {enabled: false, host: jenkins.example.com}\n"))).isEmpty();
  }

  @Test
  void rendersJenkinsServiceAccountWithToken() {
    assertThat(ServiceAccountRenderer.render(input(""))).satisfies(account -> {
      assertThat(account.getMetadata().getName()).isEqualTo("team-a-1b4e28ba");
      assertThat(account.getMetadata().getNamespace()).isEqualTo("ci");
      assertThat(account.getAutomountServiceAccountToken()).isTrue();
    });
  }
}
