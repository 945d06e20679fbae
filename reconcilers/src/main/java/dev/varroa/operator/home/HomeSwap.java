package dev.varroa.operator.home;

import dev.varroa.api.v1alpha1.HomeStatus;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Puts the home claim {@code jenkins-home-<sts>-0} on the volume of the target claim: both volumes Retain; for a
 * move the StatefulSet orphan-deleted (its claim template cannot change); both claims deleted; the target volume's
 * claimRef cleared; the home claim created again bound to it by spec.volumeName. Labels on the two volumes (value:
 * the Controller's uid) say a swap is under way and which volume is which, so a restarted operator takes it up where
 * it was. {@link #rollBack} puts the home claim back on the old volume.
 */
final class HomeSwap {
  /** On the volume that becomes the home. */
  static final String NEXT_LABEL = "varroa.dev/home-next";
  /** On the volume that was the home, until the operation ends. */
  static final String PREVIOUS_LABEL = "varroa.dev/home-previous";
  /** How long a claim may stay Pending before its storage class counts as refusing it. */
  static final Duration CLAIM_BIND_DEADLINE = Duration.ofMinutes(10);

  /** Where the swap stands. */
  sealed interface Progress permits Swapping, Swapped, SwapFailed {}

  record Swapping(String what) implements Progress {}

  record Swapped(String volume) implements Progress {}

  record SwapFailed(String message) implements Progress {}

  private final HomeVolumes volumes;
  private final HomeContext context;

  HomeSwap(HomeVolumes volumes, HomeContext context) {
    this.volumes = volumes;
    this.context = context;
  }

  /** The target volume once the swap began, until it ended. */
  Optional<PersistentVolume> next() {
    return volumes.labelled(NEXT_LABEL, context.uid()).stream().findFirst();
  }

  Optional<PersistentVolume> previous() {
    return volumes.labelled(PREVIOUS_LABEL, context.uid()).stream().findFirst();
  }

  /**
   * One more part of the swap; each call does what the cluster shows is left.
   *
   * @param deleteStatefulSet a move: the StatefulSet is orphan-deleted and re-created with the new claim template
   * @param reason why the old volume is kept, for status.home.retainedVolumes
   * @param source the new home claim's varroa.dev/home-source
   */
  Progress advance(HomeStatus home, boolean deleteStatefulSet, String reason, String source) {
    String namespace = context.namespace();
    HomeNames names = context.names();
    Optional<PersistentVolumeClaim> claim = volumes.claim(namespace, names.claim());
    Optional<PersistentVolumeClaim> target = volumes.claim(namespace, names.targetClaim());
    Optional<PersistentVolume> next = next();
    if (next.isEmpty()) {
      if (claim.isEmpty() || target.isEmpty() || !HomeClaims.bound(target.get())) {
        return new SwapFailed("the swap cannot begin: claim " + namespace + "/" + names.claim() + " or the bound claim "
            + namespace + "/" + names.targetClaim() + " is missing");
      }
      String old = claim.get().getSpec().getVolumeName();
      // Retain first: from here on neither home is lost when its claim goes, and the labels say a swap is under way
      volumes.reclaim(old, HomeVolumes.RETAIN, PREVIOUS_LABEL, context.uid());
      next = Optional.of(volumes.reclaim(target.get().getSpec().getVolumeName(), HomeVolumes.RETAIN, NEXT_LABEL,
          context.uid()));
      retained(home, old, reason);
    }
    PersistentVolume volume = next.get();
    if (claim.isPresent() && volume.getMetadata().getName().equals(claim.get().getSpec().getVolumeName())) {
      if (HomeClaims.bound(claim.get())) {
        volumes.reclaim(volume.getMetadata().getName(), HomeVolumes.RETAIN, NEXT_LABEL, null);
        return new Swapped(volume.getMetadata().getName());
      }
      return refusal(claim.get()).<Progress>map(SwapFailed::new)
          .orElse(new Swapping("claim " + names.claim() + " waits to bind to volume " + volume.getMetadata().getName()));
    }
    previous().ifPresent(p -> retained(home, p.getMetadata().getName(), reason));
    if (deleteStatefulSet && context.existing().isPresent()) {
      volumes.orphanDelete(namespace, names.statefulSet());
      return new Swapping("StatefulSet " + names.statefulSet() + " orphan-deleted");
    }
    boolean waiting = false;
    for (Optional<PersistentVolumeClaim> gone : List.of(claim, target)) {
      if (gone.isPresent()) {
        waiting = true;
        if (!HomeClaims.terminating(gone.get())) {
          volumes.deleteClaim(namespace, gone.get().getMetadata().getName());
        }
      }
    }
    if (waiting) {
      return new Swapping("claims " + names.claim() + " and " + names.targetClaim() + " deleted, their volumes kept");
    }
    bind(volume, source);
    return new Swapping("claim " + names.claim() + " created on volume " + volume.getMetadata().getName());
  }

  /**
   * Puts the home claim back on the old volume after a swap that failed; the target volume goes back to Delete.
   *
   * @return empty once the home claim is Bound to the old volume again
   */
  Optional<String> rollBack(HomeStatus home) {
    Optional<PersistentVolume> previous = previous();
    if (previous.isEmpty()) {
      return Optional.empty();
    }
    String namespace = context.namespace();
    String old = previous.get().getMetadata().getName();
    Optional<PersistentVolumeClaim> claim = volumes.claim(namespace, context.names().claim());
    if (claim.isPresent() && !old.equals(claim.get().getSpec().getVolumeName())) {
      if (!HomeClaims.terminating(claim.get())) {
        volumes.deleteClaim(namespace, context.names().claim());
      }
      return Optional.of("claim " + context.names().claim() + " on the new volume deleted");
    }
    Optional<PersistentVolumeClaim> target = volumes.claim(namespace, context.names().targetClaim());
    if (target.isPresent()) {
      if (!HomeClaims.terminating(target.get())) {
        volumes.deleteClaim(namespace, context.names().targetClaim());
      }
      return Optional.of("claim " + context.names().targetClaim() + " deleted");
    }
    if (claim.isEmpty()) {
      bind(previous.get(), "previous/" + old);
      return Optional.of("claim " + context.names().claim() + " created on the old volume " + old);
    }
    if (!HomeClaims.bound(claim.get())) {
      return Optional.of("claim " + context.names().claim() + " waits to bind to the old volume " + old);
    }
    next().ifPresent(n -> volumes.reclaim(n.getMetadata().getName(), HomeVolumes.DELETE, NEXT_LABEL, null));
    volumes.reclaim(old, HomeVolumes.RETAIN, PREVIOUS_LABEL, null);
    home.retainedVolumes.removeIf(r -> old.equals(r.volumeName));
    return Optional.empty();
  }

  /** The operation ended well: the old volume stays Retain and listed, without the label. */
  void finish() {
    previous().ifPresent(p -> volumes.reclaim(p.getMetadata().getName(), HomeVolumes.RETAIN, PREVIOUS_LABEL, null));
  }

  /** Why a claim did not bind: the provisioner's ProvisioningFailed event, or the deadline passed. */
  Optional<String> refusal(PersistentVolumeClaim claim) {
    Optional<String> failed = volumes.provisioningFailure(claim);
    if (failed.isPresent()) {
      return Optional.of("claim " + claim.getMetadata().getNamespace() + "/" + claim.getMetadata().getName()
          + " was refused by storage class " + Optional.ofNullable(claim.getSpec().getStorageClassName())
          .orElse("(default)") + ": " + failed.get());
    }
    Instant created = Instant.parse(claim.getMetadata().getCreationTimestamp());
    if (created.plus(CLAIM_BIND_DEADLINE).isBefore(context.now())) {
      return Optional.of("claim " + claim.getMetadata().getNamespace() + "/" + claim.getMetadata().getName()
          + " is still Pending after " + CLAIM_BIND_DEADLINE.toMinutes() + " minutes (storage class "
          + Optional.ofNullable(claim.getSpec().getStorageClassName()).orElse("(default)") + ")");
    }
    return Optional.empty();
  }

  private void bind(PersistentVolume volume, String source) {
    String name = volume.getMetadata().getName();
    if (volume.getSpec().getClaimRef() != null) {
      volumes.release(name);
    }
    Quantity size = volume.getSpec().getCapacity() == null ? context.persistenceSize()
        : volume.getSpec().getCapacity().get("storage");
    volumes.create(HomeClaims.boundTo(context.namespace(), context.names().claim(), context.controller().getMetadata()
        .getName(), name, Optional.ofNullable(volume.getSpec().getStorageClassName()), size, source), Optional.empty());
  }

  private void retained(HomeStatus home, String volume, String reason) {
    if (volume == null || home.retainedVolumes.stream().anyMatch(r -> volume.equals(r.volumeName))) {
      return;
    }
    HomeStatus.RetainedVolume kept = new HomeStatus.RetainedVolume();
    kept.volumeName = volume;
    kept.reason = reason;
    kept.since = context.now().toString();
    home.retainedVolumes.add(kept);
  }
}
