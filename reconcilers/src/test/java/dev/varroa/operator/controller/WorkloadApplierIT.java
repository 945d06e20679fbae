package dev.varroa.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.operator.home.HomeWorkload;
import dev.varroa.operator.render.ControllerObjects;
import dev.varroa.operator.render.RenderFixtures;
import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.operator.render.naming.StatefulSetName;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.RequestCounter;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The apply step alone (docs/controllers.md, "Status: who writes what": apply → a Refusal or nothing) on a real API
 * server: what {@link WorkloadApplier#apply} returns for a Controller's rendered objects, and what it wrote.
 */
@WithKubeApiServer
class WorkloadApplierIT {
  private static int namespaces;

  private KubernetesClient client;
  private String namespace;

  @BeforeEach
  void createNamespace(KubeApiServer kube) {
    client = kube.client();
    namespace = "apply-step-" + (++namespaces);
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .create();
  }

  @Test
  void appliesEveryRenderedObjectAndReturnsNoRefusalThenWritesNothingForTheSameRender(KubeApiServer kube) {
    Controller controller = create("plain", "{}");

    List<HasMetadata> objects = render(controller);

    assertThat(applier().apply(controller, objects, HomeWorkload.RUN)).isEmpty();

    assertThat(objects).extracting(HasMetadata::getKind).contains("Namespace", "StatefulSet", "Service");
    assertThat(objects).allSatisfy(o -> assertThat(client.resource(o).get()).as(o.getKind() + " "
        + o.getMetadata().getName()).isNotNull());
    assertThat(statefulSet(controller).getSpec().getReplicas()).isEqualTo(1);
    RequestCounter counter = new RequestCounter();
    try (KubernetesClient counted = counter.client(kube)) {
      assertThat(new WorkloadApplier(counted, new ApiServerObjects(client)).apply(controller, render(controller),
          HomeWorkload.RUN)).isEmpty();
      assertThat(counter.of(RequestCounter.Kind.WRITE)).as("writes of a second pass over the same render").isEmpty();
    }
  }

  @Test
  void refusesAnAgentsNamespaceVarroaDidNotCreateNamingItAndTheFixAndLooksAgainInAMinute() {
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace + "-jobs").endMetadata()
        .build()).create();
    Controller controller = create("tenant", "{}");

    Optional<WorkloadApplier.Refusal> refused = applier().apply(controller, render(controller), HomeWorkload.RUN);

    assertThat(refused).get().satisfies(r -> {
      assertThat(r.message()).contains("Namespace " + namespace + "-jobs exists and was not created by Varroa")
          .contains("fix: set spec.agents.namespace");
      assertThat(r.retry()).contains(WorkloadApplier.RETRY_NOT_OWNED);
    });
    assertThat(client.namespaces().withName(namespace + "-jobs").get().getMetadata().getLabels())
        .as("the namespace's labels, untouched").doesNotContainKey(ControllerLabels.MANAGED_BY);
    assertThat(statefulSet(controller)).as("nothing after the refused object is written").isNull();
  }

  @Test
  void refusesAKnownHostsConfigMapVarroaDidNotCreateInItsOwnAgentsNamespace() {
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace + "-jobs")
        .withLabels(Map.of(ControllerLabels.MANAGED_BY, ControllerLabels.MANAGED_BY_VALUE)).endMetadata().build())
        .create();
    client.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("known-hosts")
        .withNamespace(namespace + "-jobs").endMetadata().withData(Map.of("known_hosts", "theirs")).build()).create();
    Controller controller = create("ssh", "agents: {knownHosts: 'github.com ssh-ed25519 AAAA'}");

    Optional<WorkloadApplier.Refusal> refused = applier().apply(controller, render(controller), HomeWorkload.RUN);

    assertThat(refused).get().satisfies(r -> {
      assertThat(r.message()).contains("ConfigMap " + namespace + "-jobs/known-hosts exists and was not created by"
          + " Varroa").contains("fix:");
      assertThat(r.retry()).contains(WorkloadApplier.RETRY_NOT_OWNED);
    });
    assertThat(client.configMaps().inNamespace(namespace + "-jobs").withName("known-hosts").get().getData())
        .containsEntry("known_hosts", "theirs");
    assertThat(statefulSet(controller)).isNull();
  }

  @Test
  void writesEverythingButTheStatefulSetWhileTheHomeStepWithholdsIt() {
    Controller controller = create("withheld", "{}");

    List<HasMetadata> objects = render(controller);

    assertThat(applier().apply(controller, objects, HomeWorkload.WITHHELD)).isEmpty();

    assertThat(statefulSet(controller)).isNull();
    assertThat(objects).filteredOn(o -> !(o instanceof StatefulSet)).hasSizeGreaterThan(3)
        .allSatisfy(o -> assertThat(client.resource(o).get()).as(o.getKind() + " " + o.getMetadata().getName())
            .isNotNull());
  }

  @Test
  void scalesTheStatefulSetToZeroWhileTheHomeStepStopsIt() {
    Controller controller = create("stopped", "{}");
    assertThat(applier().apply(controller, render(controller), HomeWorkload.RUN)).isEmpty();
    assertThat(statefulSet(controller).getSpec().getReplicas()).isEqualTo(1);

    assertThat(applier().apply(controller, render(controller), HomeWorkload.STOPPED)).isEmpty();

    assertThat(statefulSet(controller).getSpec().getReplicas()).isZero();
  }

  @Test
  void refusesASmallerHomeWithTheSizeItHasAndNoRetry() {
    Controller controller = create("shrinking", "persistence: {size: 20Gi}");
    assertThat(applier().apply(controller, render(controller), HomeWorkload.RUN)).isEmpty();

    controller.getSpec().persistence.size = "10Gi";
    Optional<WorkloadApplier.Refusal> refused = applier().apply(controller, render(controller), HomeWorkload.RUN);

    assertThat(refused).get().satisfies(r -> {
      assertThat(r.message()).contains("persistence.size 10Gi is smaller than the 20Gi").contains("volumes do not"
          + " shrink").contains("fix: set persistence.size to 20Gi or more");
      assertThat(r.retry()).as("a spec change starts the next pass").isEmpty();
    });
    assertThat(templateSize(statefulSet(controller))).isEqualTo(new Quantity("20Gi"));
  }

  @Test
  void refusesALargerHomeItsStorageClassCannotExpandNamingTheFixAndLooksAgainInAMinute() {
    String storageClass = namespace + "-fixed";
    client.resource(new StorageClassBuilder().withNewMetadata().withName(storageClass).endMetadata()
        .withProvisioner("example.com/volumes").withAllowVolumeExpansion(false).build()).create();
    Controller controller = create("growing", "persistence: {size: 20Gi, storageClassName: " + storageClass + "}");
    assertThat(applier().apply(controller, render(controller), HomeWorkload.RUN)).isEmpty();
    new KubeletStandIn(client).createPod(statefulSet(controller));
    String claim = "jenkins-home-" + statefulSet(controller).getMetadata().getName() + "-0";

    controller.getSpec().persistence.size = "50Gi";
    Optional<WorkloadApplier.Refusal> refused = applier().apply(controller, render(controller), HomeWorkload.RUN);

    assertThat(refused).get().satisfies(r -> {
      assertThat(r.message()).contains("persistence.size 50Gi cannot be applied to claim " + claim)
          .contains("fix: give the claim's storage class allowVolumeExpansion: true")
          .contains("set persistence.size back to 20Gi");
      assertThat(r.retry()).as("StorageClasses are not watched").contains(WorkloadApplier.RETRY_REFUSED_RESIZE);
    });
    assertThat(client.persistentVolumeClaims().inNamespace(namespace).withName(claim).get().getSpec().getResources()
        .getRequests().get("storage")).isEqualTo(new Quantity("20Gi"));
  }

  private WorkloadApplier applier() {
    return new WorkloadApplier(client, new ApiServerObjects(client));
  }

  private Controller create(String name, String specYaml) {
    return ControllerManifests.create(client, namespace, name, specYaml);
  }

  /** The render step's objects for the Controller as it is now (a fresh list: the applier changes what it gets). */
  private static List<HasMetadata> render(Controller controller) {
    return ControllerObjects.render(RenderFixtures.input(RenderFixtures.resolved(controller), RenderFixtures.JCASC,
        RenderFixtures.profile(), Optional.empty(), List.of()));
  }

  private StatefulSet statefulSet(Controller controller) {
    return client.apps().statefulSets().inNamespace(namespace)
        .withName(StatefulSetName.of(controller.getMetadata().getName(), controller.getMetadata().getUid())).get();
  }

  private static Quantity templateSize(StatefulSet sts) {
    return sts.getSpec().getVolumeClaimTemplates().get(0).getSpec().getResources().getRequests().get("storage");
  }
}
