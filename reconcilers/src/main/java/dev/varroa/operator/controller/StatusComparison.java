package dev.varroa.operator.controller;

import dev.varroa.api.v1alpha1.ControllerStatus;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/** Compares statuses by their JSON, so a patch is sent only when something a reader sees changed. */
final class StatusComparison {
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private StatusComparison() {}

  static boolean same(ControllerStatus a, ControllerStatus b) {
    return JSON.asJson(a).equals(JSON.asJson(b));
  }

  static ControllerStatus copy(ControllerStatus status) {
    return JSON.convertValue(status, ControllerStatus.class);
  }
}
