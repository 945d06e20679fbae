package dev.varroa.operator.apply;

import dev.varroa.operator.render.AppliedHash;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's one writer of owned objects (docs/controllers.md, "Owned objects: one applier"): server-side
 * apply under {@link #FIELD_MANAGER}, the owner's controller reference where Kubernetes allows one, and only when
 * the rendered object changed: each object carries the hash of what was last applied, so a pass that finds nothing
 * changed writes nothing and, on informers, reads nothing. It force-applies, so an object that exists and is not
 * the owner's ({@link OwnershipCheck}) is refused first, never taken over.
 */
public final class OwnedObjectApplier {
  /** The field manager of every object and Event the operator writes. */
  public static final String FIELD_MANAGER = "varroa-operator";
  /** The hash of the desired object as last applied. */
  public static final String APPLIED_HASH = AppliedHash.ANNOTATION;
  private static final Logger LOG = LoggerFactory.getLogger(OwnedObjectApplier.class);

  /** Whether an object that exists may be overwritten for an owner. */
  @FunctionalInterface
  public interface OwnershipCheck {
    /**
     * For objects only Varroa names, in a namespace only the operator writes (an UpdateCenter's): nothing to check,
     * so nothing is read beyond the informers.
     */
    OwnershipCheck NONE = (existing, owner) -> Optional.empty();

    /** @return why {@code existing} is not {@code owner}'s to overwrite, with the fix; empty when it is */
    Optional<String> refusal(HasMetadata existing, HasMetadata owner);

    /**
     * Whether nobody but the owner can have made an object of {@code desired}'s name, because the name embeds the
     * owner's UID: such an object, absent from the informers, is written without being read first.
     */
    default boolean reservedFor(HasMetadata desired, HasMetadata owner) {
      return false;
    }
  }

  /** What one apply did: wrote the object, found it unchanged, or refused it (why, with the fix). */
  public record Outcome(boolean written, Optional<String> refusal) {
    static final Outcome WRITTEN = new Outcome(true, Optional.empty());
    static final Outcome UNCHANGED = new Outcome(false, Optional.empty());

    static Outcome refused(String why) {
      return new Outcome(false, Optional.of(why));
    }
  }

  private final KubernetesClient client;
  private final KnownObjects known;
  private final OwnershipCheck ownership;

  public OwnedObjectApplier(KubernetesClient client, KnownObjects known, OwnershipCheck ownership) {
    this.client = client;
    this.known = known;
    this.ownership = ownership;
  }

  /** Applies {@code desired} for {@code owner} unless it is unchanged or not the owner's to write. */
  public Outcome apply(HasMetadata desired, HasMetadata owner) {
    ownBy(desired, owner);
    String hash = AppliedHash.of(desired);
    Optional<HasMetadata> cached = known.existing(desired);
    Optional<HasMetadata> existing = cached;
    if (ownership != OwnershipCheck.NONE) {
      // the informers hold Varroa's objects only (label selection): one absent there may still exist, unlabelled
      if (existing.isEmpty() && !ownership.reservedFor(desired, owner)) {
        existing = Optional.ofNullable(client.resource(desired).get());
      }
      Optional<String> refusal = existing.flatMap(e -> ownership.refusal(e, owner));
      if (refusal.isPresent()) {
        LOG.warn("event=apply_refused_not_owned kind={} namespace={} name={} owner={}/{}", desired.getKind(),
            desired.getMetadata().getNamespace(), desired.getMetadata().getName(), owner.getMetadata().getNamespace(),
            owner.getMetadata().getName());
        return Outcome.refused(refusal.get());
      }
    }
    if (existing.isPresent() && existing.get().getMetadata().getAnnotations() != null
        && hash.equals(existing.get().getMetadata().getAnnotations().get(APPLIED_HASH))) {
      return Outcome.UNCHANGED;
    }
    if (existing.isPresent() && existing.get() instanceof RoleBinding was && desired instanceof RoleBinding wanted
        && !was.getRoleRef().equals(wanted.getRoleRef())) {
      // roleRef is immutable: a binding from before the chart's agents ClusterRole (a Role of its own) is replaced
      client.resource(was).delete();
      cached = Optional.empty();
    }
    // Renderers may hand out immutable maps: annotate a copy.
    Map<String, String> annotations = desired.getMetadata().getAnnotations() == null
        ? new HashMap<>() : new HashMap<>(desired.getMetadata().getAnnotations());
    annotations.put(APPLIED_HASH, hash);
    desired.getMetadata().setAnnotations(annotations);
    known.beforeWrite(desired, cached);
    known.remember(serverSideApply(desired), cached);
    return Outcome.WRITTEN;
  }

  /** Creates the object when the informers hold none, and never touches it after (a volume that outlives its owner). */
  public boolean createIfAbsent(HasMetadata desired) {
    if (known.existing(desired).isPresent()) {
      return false;
    }
    serverSideApply(desired);
    return true;
  }

  /**
   * Applies {@code desired} for {@code owner} every time, with no hash and no check: for a caller that checked every
   * object of a set before writing any (a catalog index) and needs what the API server returned.
   */
  public <T extends HasMetadata> T forceApply(T desired, HasMetadata owner) {
    ownBy(desired, owner);
    return serverSideApply(desired);
  }

  private static void ownBy(HasMetadata desired, HasMetadata owner) {
    if (OwnerReferences.canOwn(owner, desired)) {
      desired.getMetadata().setOwnerReferences(List.of(OwnerReferences.controller(owner)));
    }
  }

  private <T extends HasMetadata> T serverSideApply(T desired) {
    return client.resource(desired).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
  }
}
