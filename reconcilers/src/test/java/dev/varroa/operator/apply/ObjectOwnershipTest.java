package dev.varroa.operator.apply;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.operator.render.naming.StatefulSetName;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjectOwnershipTest {
  private static final Controller OWNER = owner();

  @Test
  void refusesANamespaceVarroaDidNotCreateNamingTheFieldAndTheFix() {
    HasMetadata kubeSystem = new NamespaceBuilder().withNewMetadata().withName("kube-system").endMetadata().build();

    assertThat(ObjectOwnership.refusal(kubeSystem, OWNER)).hasValueSatisfying(message -> assertThat(message)
        .contains("Namespace kube-system exists and was not created by Varroa")
        .contains("spec.agents.namespace").contains("team-a-jobs"));
  }

  @Test
  void acceptsTheSharedAgentsNamespaceVarroaCreated() {
    HasMetadata jobs = new NamespaceBuilder().withNewMetadata().withName("team-a-jobs")
        .addToLabels(ControllerLabels.MANAGED_BY, ControllerLabels.MANAGED_BY_VALUE).endMetadata().build();

    assertThat(ObjectOwnership.refusal(jobs, OWNER)).isEmpty();
  }

  @Test
  void refusesAnObjectOwnedByAnotherController() {
    HasMetadata other = new ConfigMapBuilder().withMetadata(new ObjectMetaBuilder().withName("x-casc")
        .withNamespace("team-a").withLabels(ControllerLabels.of("other")).addNewOwnerReference()
        .withKind("Controller").withName("other").withUid("uid-other").withController(true).endOwnerReference()
        .build()).build();

    assertThat(ObjectOwnership.refusal(other, OWNER)).hasValueSatisfying(message -> assertThat(message)
        .contains("belongs to Controller other"));
  }

  @Test
  void refusesAnUnlabelledObjectInTheControllersNamespace() {
    HasMetadata foreign = new ConfigMapBuilder().withNewMetadata().withName("jenkins-casc").withNamespace("team-a")
        .endMetadata().build();

    assertThat(ObjectOwnership.refusal(foreign, OWNER)).hasValueSatisfying(message -> assertThat(message)
        .contains("ConfigMap team-a/jenkins-casc exists and was not created by Varroa").contains("fix:"));
  }

  @Test
  void acceptsItsOwnObjectsAndTheAgentsNamespacesDefaultServiceAccount() {
    HasMetadata own = new ConfigMapBuilder().withMetadata(new ObjectMetaBuilder().withName("jenkins-casc")
        .withNamespace("team-a").withLabels(ControllerLabels.of("jenkins")).addNewOwnerReference()
        .withKind("Controller").withName("jenkins").withUid("uid-jenkins").withController(true).endOwnerReference()
        .build()).build();
    HasMetadata defaultAccount = new ServiceAccountBuilder().withNewMetadata().withName("default")
        .withNamespace("team-a-jobs").endMetadata().build();

    assertThat(ObjectOwnership.refusal(own, OWNER)).isEmpty();
    assertThat(ObjectOwnership.refusal(defaultAccount, OWNER)).isEmpty();
  }

  @Test
  void readsBeforeTheFirstWriteOnlyNamesThatDoNotEmbedTheControllersUid() {
    String sts = StatefulSetName.of("jenkins", "uid-jenkins");

    assertThat(ObjectOwnership.CONTROLLER.reservedFor(configMap(sts + "-casc", "team-a"), OWNER)).isTrue();
    assertThat(ObjectOwnership.CONTROLLER.reservedFor(configMap(sts, "team-a"), OWNER)).isTrue();
    assertThat(ObjectOwnership.CONTROLLER.reservedFor(configMap(sts + "-agents", "team-a-jobs"), OWNER)).isTrue();
    assertThat(ObjectOwnership.CONTROLLER.reservedFor(configMap("known-hosts", "team-a-jobs"), OWNER)).isFalse();
    assertThat(ObjectOwnership.CONTROLLER.reservedFor(configMap("jenkins-casc", "team-a"), OWNER)).isFalse();
    assertThat(ObjectOwnership.CONTROLLER.reservedFor(new NamespaceBuilder().withNewMetadata().withName("team-a-jobs")
        .endMetadata().build(), OWNER)).isFalse();
    assertThat(ObjectOwnership.CONTROLLER.refusal(configMap("jenkins-casc", "team-a"), OWNER)).isPresent();
  }

  private static HasMetadata configMap(String name, String namespace) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata().build();
  }

  private static Controller owner() {
    Controller controller = new Controller();
    controller.setMetadata(new ObjectMetaBuilder().withName("jenkins").withNamespace("team-a").withUid("uid-jenkins")
        .withLabels(Map.of()).build());
    return controller;
  }

  @Test
  void refusesABundlesConfigMapNameTakenByAnObjectNotWrittenForTheBundle() {
    ComposedBundle bundle = new ComposedBundle();
    bundle.getMetadata().setName("team-a");
    bundle.getMetadata().setNamespace("ci");
    bundle.getMetadata().setUid("uid-bundle");
    HasMetadata foreign = new ConfigMapBuilder().withNewMetadata().withName("team-a-bundle").withNamespace("ci")
        .addToLabels(ControllerLabels.MANAGED_BY, ControllerLabels.MANAGED_BY_VALUE).endMetadata().build();
    HasMetadata predecessors = new ConfigMapBuilder().withMetadata(new ObjectMetaBuilder().withName("team-a-bundle")
        .withNamespace("ci").addNewOwnerReference().withKind("ComposedBundle").withName("team-a")
        .withUid("uid-deleted-bundle").withController(true).endOwnerReference().build()).build();

    assertThat(ObjectOwnership.controllerRefusal(foreign, bundle)).hasValueSatisfying(message -> assertThat(message)
        .contains("ConfigMap ci/team-a-bundle exists and was not written for ComposedBundle ci/team-a")
        .contains("fix: rename or delete that ConfigMap, or rename the ComposedBundle"));
    assertThat(ObjectOwnership.controllerRefusal(predecessors, bundle)).isEmpty();
  }
}
