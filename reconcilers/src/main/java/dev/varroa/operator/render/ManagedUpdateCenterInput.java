package dev.varroa.operator.render;

import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.operator.render.naming.UpdateCenterNames;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What a managed UpdateCenter's objects are rendered from.
 *
 * @param namespace the operator's namespace, where everything runs
 * @param image the update center image: spec.managed.image, else the operator's default
 * @param wanted every plugin version the profiles and bundle locks name, as {@code id:version}
 * @param signingSecret the Secret with ca.crt, signer.crt, signer.key (spec.managed.signingSecretRef, or the operator's)
 */
public record ManagedUpdateCenterInput(UpdateCenter updateCenter, String namespace, String image,
    SortedSet<String> wanted, String signingSecret) {
  public ManagedUpdateCenterInput {
    wanted = new TreeSet<>(wanted);
  }

  public UpdateCenterNames names() {
    return UpdateCenterNames.of(updateCenter.getMetadata().getName());
  }
}
