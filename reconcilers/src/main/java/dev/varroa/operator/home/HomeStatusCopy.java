package dev.varroa.operator.home;

import dev.varroa.api.v1alpha1.HomeStatus;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/** Deep copies through JSON, so a pass never edits the status object the informer's cache holds. */
final class HomeStatusCopy {
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private HomeStatusCopy() {}

  static HomeStatus of(HomeStatus home) {
    return home == null ? new HomeStatus() : JSON.convertValue(home, HomeStatus.class);
  }
}
