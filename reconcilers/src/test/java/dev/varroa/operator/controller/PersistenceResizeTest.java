package dev.varroa.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.operator.render.AppliedHash;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import org.junit.jupiter.api.Test;

class PersistenceResizeTest {

  @Test
  void growsTheClaimAndKeepsTheImmutableTemplate() {
    StatefulSet desired = sts("50Gi", null);

    PersistenceResize.Plan plan = PersistenceResize.plan(desired, sts("20Gi", null));

    assertThat(plan).isEqualTo(new PersistenceResize.Grow(new Quantity("50Gi")));
    assertThat(desired.getSpec().getVolumeClaimTemplates().get(0).getSpec().getResources().getRequests())
        .containsEntry("storage", new Quantity("20Gi"));
  }

  @Test
  void refusesToShrinkAndNamesTheFix() {
    PersistenceResize.Plan plan = PersistenceResize.plan(sts("10Gi", null), sts("20Gi", null));

    assertThat(plan).isInstanceOfSatisfying(PersistenceResize.Refused.class, r -> assertThat(r.message())
        .contains("persistence.size 10Gi").contains("fix: set persistence.size to 20Gi or more"));
  }

  @Test
  void comparesWithTheClaimWhenItAlreadyGrewPastTheTemplate() {
    PersistenceResize.Plan plan = PersistenceResize.plan(sts("30Gi", null), sts("20Gi", null), new Quantity("50Gi"));

    assertThat(plan).isInstanceOfSatisfying(PersistenceResize.Refused.class, r -> assertThat(r.message())
        .contains("smaller than the 50Gi"));
  }

  @Test
  void refusesAnotherStorageClassUntilTheMoveIsConfirmedAndSaysHowToConfirm() {
    PersistenceResize.Plan plan = PersistenceResize.plan(sts("20Gi", "fast"), sts("20Gi", "standard"));

    assertThat(plan).isInstanceOfSatisfying(PersistenceResize.Refused.class, r -> assertThat(r.message())
        .contains("persistence.storageClassName changed from standard to fast")
        .contains("annotate the Controller varroa.dev/confirm-home-move=fast")
        .contains("or set persistence.storageClassName back to standard"));
  }

  @Test
  void keepsTheOldClaimTemplateWhileAMoveHandlesTheClassChange() {
    StatefulSet desired = sts("20Gi", "fast");

    PersistenceResize.Plan plan = PersistenceResize.plan(desired, sts("20Gi", "standard"), null, true);

    assertThat(plan).isEqualTo(new PersistenceResize.Unchanged());
    assertThat(desired.getSpec().getVolumeClaimTemplates().get(0).getSpec().getStorageClassName())
        .isEqualTo("standard");
  }

  @Test
  void leavesANewOrUnchangedStatefulSetAlone() {
    assertThat(PersistenceResize.plan(sts("20Gi", null), null)).isEqualTo(new PersistenceResize.Unchanged());
    assertThat(PersistenceResize.plan(sts("20Gi", null), sts("20Gi", null))).isEqualTo(new PersistenceResize.Unchanged());
  }

  @Test
  void keepsTheHashOfAnUnchangedStatefulSetWhoseTemplatesTheApiServerDefaulted() {
    StatefulSet desired = sts("20Gi", null);
    String firstApplied = AppliedHash.of(desired);
    StatefulSet existing = sts("20Gi", null);
    existing.getSpec().getVolumeClaimTemplates().get(0).getSpec().setVolumeMode("Filesystem");
    existing.getSpec().getVolumeClaimTemplates().get(0).setStatus(new PersistentVolumeClaimStatusBuilder()
        .withPhase("Pending").build());

    PersistenceResize.plan(desired, existing);

    assertThat(AppliedHash.of(desired)).isEqualTo(firstApplied);
    assertThat(existing.getSpec().getVolumeClaimTemplates().get(0).getStatus()).as("the informer's copy").isNotNull();
  }

  @Test
  void keepsAVolumeModeTheRendererAskedFor() {
    StatefulSet desired = sts("20Gi", null);
    desired.getSpec().getVolumeClaimTemplates().get(0).getSpec().setVolumeMode("Filesystem");
    StatefulSet existing = sts("20Gi", null);
    existing.getSpec().getVolumeClaimTemplates().get(0).getSpec().setVolumeMode("Filesystem");

    PersistenceResize.plan(desired, existing);

    assertThat(desired.getSpec().getVolumeClaimTemplates().get(0).getSpec().getVolumeMode()).isEqualTo("Filesystem");
  }

  private static StatefulSet sts(String size, String storageClass) {
    return new StatefulSetBuilder().withNewMetadata().withName("team-a-1b4e28ba").withNamespace("ci").endMetadata()
        .withNewSpec().addNewVolumeClaimTemplate().withNewMetadata().withName("jenkins-home").endMetadata()
        .withNewSpec().withStorageClassName(storageClass).withNewResources()
        .addToRequests("storage", new Quantity(size)).endResources().endSpec().endVolumeClaimTemplate()
        .endSpec().build();
  }
}
