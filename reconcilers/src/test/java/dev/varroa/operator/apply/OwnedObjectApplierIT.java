package dev.varroa.operator.apply;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.operator.apply.OwnedObjectApplier.OwnershipCheck;
import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.operator.render.naming.StatefulSetName;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.RequestCounter;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The one applier of owned objects against a real API server: what it writes, what it leaves, what it refuses. */
@WithKubeApiServer
class OwnedObjectApplierIT {
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private static int controllers;

  private KubernetesClient client;
  private Controller owner;
  private String namespace;

  @BeforeEach
  void createOwner(KubeApiServer kube) {
    client = kube.client();
    namespace = "apply-" + (++controllers);
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .create();
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: jenkins, namespace: %s}
        spec: {}
        """.formatted(namespace), GenericKubernetesResource.class)).create();
    owner = client.resources(Controller.class).inNamespace(namespace).withName("jenkins").get();
  }

  @Test
  void writesAChangedObjectOnceWithItsOwnerAndFieldManagerThenNothingWhileUnchanged(KubeApiServer kube) {
    RequestCounter counter = new RequestCounter();
    try (KubernetesClient counted = counter.client(kube)) {
      OwnedObjectApplier applier = new OwnedObjectApplier(counted, KnownObjects.NONE, ObjectOwnership::refusal);

      assertThat(applier.apply(configMap("first"), owner)).isEqualTo(OwnedObjectApplier.Outcome.WRITTEN);
      ConfigMap written = client.configMaps().inNamespace(namespace).withName("jenkins-casc").get();
      assertThat(written.getMetadata().getOwnerReferences()).singleElement().satisfies(reference -> {
        assertThat(reference.getUid()).isEqualTo(owner.getMetadata().getUid());
        assertThat(reference.getController()).isTrue();
        assertThat(reference.getBlockOwnerDeletion()).isTrue();
      });
      assertThat(written.getMetadata().getManagedFields()).extracting(f -> f.getManager())
          .contains(OwnedObjectApplier.FIELD_MANAGER);

      counter.reset();
      assertThat(applier.apply(configMap("first"), owner)).isEqualTo(OwnedObjectApplier.Outcome.UNCHANGED);
      assertThat(counter.of(RequestCounter.Kind.WRITE)).as("writes for an unchanged object").isEmpty();

      assertThat(applier.apply(configMap("second"), owner).written()).isTrue();
      assertThat(client.configMaps().inNamespace(namespace).withName("jenkins-casc").get().getData())
          .containsEntry("jenkins.yaml", "second");
    }
  }

  @Test
  void writesANewControllersObjectWithoutReadingItFirstOnlyWhenItsNameEmbedsTheUid(KubeApiServer kube) {
    String sts = StatefulSetName.of("jenkins", owner.getMetadata().getUid());
    RequestCounter counter = new RequestCounter();
    try (KubernetesClient counted = counter.client(kube)) {
      OwnedObjectApplier applier = new OwnedObjectApplier(counted, KnownObjects.NONE, ObjectOwnership.CONTROLLER);

      assertThat(applier.apply(named(configMap("first"), sts + "-casc"), owner).written()).isTrue();
      assertThat(counter.of(RequestCounter.Kind.GET)).as("GETs before writing %s-casc", sts).isEmpty();

      assertThat(applier.apply(configMap("first"), owner).written()).isTrue();
      assertThat(counter.of(RequestCounter.Kind.GET)).as("GETs before writing jenkins-casc").hasSize(1);
    }
  }

  private static ConfigMap named(ConfigMap configMap, String name) {
    configMap.getMetadata().setName(name);
    return configMap;
  }

  @Test
  void readsNothingAnInformerHoldsWhenUnchanged(KubeApiServer kube) {
    new OwnedObjectApplier(client, KnownObjects.NONE, ObjectOwnership::refusal).apply(configMap("first"), owner);
    ConfigMap cached = client.configMaps().inNamespace(namespace).withName("jenkins-casc").get();
    RequestCounter counter = new RequestCounter();
    try (KubernetesClient counted = counter.client(kube)) {
      OwnedObjectApplier applier = new OwnedObjectApplier(counted, desired -> Optional.of(cached),
          ObjectOwnership::refusal);

      assertThat(applier.apply(configMap("first"), owner).written()).isFalse();
      assertThat(counter.requests()).as("requests when the cache holds the object unchanged").isEmpty();
    }
  }

  @Test
  void refusesAnObjectVarroaDidNotCreateAndLeavesItAsItWas() {
    client.resource(new ConfigMapBuilder().withNewMetadata().withName("jenkins-casc").withNamespace(namespace)
        .endMetadata().withData(Map.of("jenkins.yaml", "someone else's")).build()).create();

    OwnedObjectApplier.Outcome outcome = new OwnedObjectApplier(client, KnownObjects.NONE, ObjectOwnership::refusal)
        .apply(configMap("ours"), owner);

    assertThat(outcome.written()).isFalse();
    assertThat(outcome.refusal()).hasValueSatisfying(message -> assertThat(message)
        .contains("ConfigMap " + namespace + "/jenkins-casc exists and was not created by Varroa").contains("fix:"));
    assertThat(client.configMaps().inNamespace(namespace).withName("jenkins-casc").get().getData())
        .containsEntry("jenkins.yaml", "someone else's");
  }

  @Test
  void givesNoOwnerReferenceOutsideTheOwnersNamespace() {
    Namespace agents = new NamespaceBuilder().withNewMetadata().withName(namespace + "-jobs")
        .withLabels(ControllerLabels.of("jenkins")).endMetadata().build();

    assertThat(new OwnedObjectApplier(client, KnownObjects.NONE, ObjectOwnership::refusal).apply(agents, owner)
        .written()).isTrue();

    assertThat(client.namespaces().withName(namespace + "-jobs").get().getMetadata().getOwnerReferences()).isEmpty();
  }

  @Test
  void replacesARoleBindingWhoseRoleRefChanged() {
    OwnedObjectApplier applier = new OwnedObjectApplier(client, KnownObjects.NONE, ObjectOwnership::refusal);
    applier.apply(roleBinding("Role", "jenkins-agents"), owner);
    String firstUid = client.rbac().roleBindings().inNamespace(namespace).withName("jenkins-agents").get()
        .getMetadata().getUid();

    assertThat(applier.apply(roleBinding("ClusterRole", "varroa-agents"), owner).written()).isTrue();

    RoleBinding replaced = client.rbac().roleBindings().inNamespace(namespace).withName("jenkins-agents").get();
    assertThat(replaced.getRoleRef().getKind()).isEqualTo("ClusterRole");
    assertThat(replaced.getMetadata().getUid()).as("a new binding: roleRef is immutable").isNotEqualTo(firstUid);
  }

  @Test
  void createsAnAbsentObjectOnceAndNeverTouchesItAfter() {
    KnownObjects onTheServer = desired -> Optional.ofNullable(client.resource(desired).get()).map(HasMetadata.class::cast);
    OwnedObjectApplier applier = new OwnedObjectApplier(client, onTheServer, OwnershipCheck.NONE);

    assertThat(applier.createIfAbsent(configMap("first"))).isTrue();
    assertThat(applier.createIfAbsent(configMap("second"))).isFalse();

    ConfigMap kept = client.configMaps().inNamespace(namespace).withName("jenkins-casc").get();
    assertThat(kept.getData()).containsEntry("jenkins.yaml", "first");
    assertThat(kept.getMetadata().getOwnerReferences()).as("it outlives any owner").isEmpty();
  }

  @Test
  void forceAppliesWithTheOwnerAndReturnsWhatTheServerHolds() {
    ConfigMap applied = new OwnedObjectApplier(client, KnownObjects.NONE, ObjectOwnership::controllerRefusal)
        .forceApply(configMap("first"), owner);

    assertThat(applied.getMetadata().getUid()).isNotNull();
    assertThat(applied.getMetadata().getOwnerReferences()).extracting(OwnerReference::getName).containsExactly("jenkins");
  }

  private ConfigMap configMap(String content) {
    return new ConfigMapBuilder().withNewMetadata().withName("jenkins-casc").withNamespace(namespace)
        .withLabels(ControllerLabels.of("jenkins")).endMetadata().withData(Map.of("jenkins.yaml", content)).build();
  }

  private RoleBinding roleBinding(String kind, String role) {
    return new RoleBindingBuilder().withNewMetadata().withName("jenkins-agents").withNamespace(namespace)
        .withLabels(ControllerLabels.of("jenkins")).endMetadata()
        .withNewRoleRef("rbac.authorization.k8s.io", kind, role)
        .addNewSubject().withKind("ServiceAccount").withName("jenkins").withNamespace(namespace).endSubject().build();
  }
}
