package dev.varroa.operator.bffresponders;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.protocol.bus.v1.ControllerRow;
import java.util.Objects;

/** A Controller as the lists show it, from its metadata and status alone: pure, no client. */
public final class ControllerRowRenderer {

  private ControllerRowRenderer() {
  }

  public static ControllerRow render(Controller controller) {
    ControllerRow.Builder row = ControllerRow.newBuilder()
        .setNamespace(text(controller.getMetadata().getNamespace()))
        .setName(text(controller.getMetadata().getName()))
        .setUid(text(controller.getMetadata().getUid()))
        .setCreatedAt(text(controller.getMetadata().getCreationTimestamp()));
    if (controller.getMetadata().getLabels() != null) {
      row.putAllLabels(controller.getMetadata().getLabels());
    }
    ControllerStatus status = controller.getStatus();
    if (status == null) {
      return row.build();
    }
    row.setPhase(status.phase == null ? "" : status.phase.name())
        .setAttention(text(status.attention))
        .setBundle(text(status.bundle))
        .setLastReconciledAt(text(status.lastReconciledAt))
        .setUrl(text(status.url));
    if (status.miteStatus != null) {
      row.setJenkinsVersion(text(status.miteStatus.jenkinsVersion));
    }
    ControllerStatus.ApplyResult apply = status.lastApplyResult;
    if (apply != null && apply.succeeded != null) {
      row.setHasLastApply(true)
          .setLastApplySucceeded(apply.succeeded)
          .setLastApplyMessage(text(apply.message))
          .setLastAppliedAt(text(apply.appliedAt));
      if (apply.succeeded) {
        row.setRevision(text(apply.bundleDigest));
      }
    }
    return row.build();
  }

  private static String text(String value) {
    return Objects.toString(value, "");
  }
}
