package dev.varroa.operator.controller;

import dev.varroa.operator.apply.KnownObjects;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.Optional;

/**
 * Where the apply and delivery steps read the objects a Controller owns: the operator's informer caches in
 * production ({@link ControllerCaches}), the API server itself in the tests of those steps.
 */
interface OwnedObjectLookup extends KnownObjects {
  /** An owned object as the informer holds it (a Secret without its values); empty when it holds none. */
  <T extends HasMetadata> Optional<T> owned(Class<T> kind, String name, String namespace);

  /** The values of the Secrets Controllers reference. */
  SecretValues secretValues();

  default Optional<StatefulSet> statefulSet(String namespace, String name) {
    return owned(StatefulSet.class, name, namespace);
  }

  default Optional<PersistentVolumeClaim> claim(String namespace, String name) {
    return owned(PersistentVolumeClaim.class, name, namespace);
  }
}
