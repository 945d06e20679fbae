package dev.varroa.operator.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Events a Varroa object gets, on a real API server. */
@WithKubeApiServer
class EventRecorderIT {
  private static final Instant PINNED = Instant.parse("2031-02-03T04:05:06Z");

  @Test
  void stampsEventsWithTheInjectedClockNotTheMachines(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("events-clock").endMetadata()
        .build()).serverSideApply();
    ConfigMap object = client.configMaps().inNamespace("events-clock").resource(new ConfigMapBuilder()
        .withNewMetadata().withName("subject").withNamespace("events-clock").endMetadata().build()).create();

    new EventRecorder(client, "varroa-test", Clock.fixed(PINNED, ZoneOffset.UTC))
        .normal(object, "Pinned", "stamped by the injected clock");

    List<Event> events = client.v1().events().inNamespace("events-clock").list().getItems();
    assertThat(events).singleElement().satisfies(event -> {
      assertThat(event.getReason()).isEqualTo("Pinned");
      assertThat(event.getFirstTimestamp()).isEqualTo(PINNED.toString());
      assertThat(event.getLastTimestamp()).isEqualTo(PINNED.toString());
      assertThat(event.getSource().getComponent()).isEqualTo("varroa-test");
      assertThat(event.getInvolvedObject().getUid()).isEqualTo(object.getMetadata().getUid());
    });
  }
}
