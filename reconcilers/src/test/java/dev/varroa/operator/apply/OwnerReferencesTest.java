package dev.varroa.operator.apply;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.UpdateCenter;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import org.junit.jupiter.api.Test;

class OwnerReferencesTest {
  @Test
  void aControllerReferenceBlocksTheOwnersForegroundDeletion() {
    OwnerReference reference = OwnerReferences.controller(controller());

    assertThat(reference.getApiVersion()).isEqualTo("varroa.dev/v1alpha1");
    assertThat(reference.getKind()).isEqualTo("Controller");
    assertThat(reference.getName()).isEqualTo("jenkins");
    assertThat(reference.getUid()).isEqualTo("uid-jenkins");
    assertThat(reference.getController()).isTrue();
    assertThat(reference.getBlockOwnerDeletion()).isTrue();
  }

  @Test
  void aPlainReferenceIsNoController() {
    OwnerReference reference = OwnerReferences.owner(controller());

    assertThat(reference.getController()).isNull();
    assertThat(reference.getBlockOwnerDeletion()).isNull();
  }

  @Test
  void aNamespacedOwnerOwnsOnlyObjectsOfItsNamespace() {
    assertThat(OwnerReferences.canOwn(controller(), configMap("team-a"))).isTrue();
    assertThat(OwnerReferences.canOwn(controller(), configMap("team-a-jobs"))).isFalse();
    assertThat(OwnerReferences.canOwn(controller(),
        new NamespaceBuilder().withNewMetadata().withName("team-a-jobs").endMetadata().build())).isFalse();
  }

  @Test
  void aClusterScopedOwnerOwnsObjectsOfAnyNamespace() {
    UpdateCenter updateCenter = new UpdateCenter();
    updateCenter.getMetadata().setName("plugins");
    updateCenter.getMetadata().setUid("uid-plugins");

    assertThat(OwnerReferences.canOwn(updateCenter, configMap("varroa-system"))).isTrue();
  }

  private static Controller controller() {
    Controller controller = new Controller();
    controller.getMetadata().setName("jenkins");
    controller.getMetadata().setNamespace("team-a");
    controller.getMetadata().setUid("uid-jenkins");
    return controller;
  }

  private static HasMetadata configMap(String namespace) {
    return new ConfigMapBuilder().withNewMetadata().withName("x").withNamespace(namespace).endMetadata().build();
  }
}
