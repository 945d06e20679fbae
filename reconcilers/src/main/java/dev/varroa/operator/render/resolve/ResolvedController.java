package dev.varroa.operator.render.resolve;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.varroa.api.v1alpha1.AgentsSpec;
import dev.varroa.api.v1alpha1.ObjectRef;
import dev.varroa.api.v1alpha1.SecretVariable;
import dev.varroa.operator.render.naming.ControllerNames;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One Controller's settings after ProvisioningDefaults &lt; ControllerClass &lt; Controller and the
 * built-in defaults of {@link ControllerSettingsResolver}: every field the renderers read, none null.
 *
 * @param name Controller name
 * @param namespace Controller namespace
 * @param uid Controller UID (its first 8 characters name the StatefulSet)
 * @param labels the Controller's own labels, which PodTemplate controllerSelectors match
 * @param stopped powerState Stopped: zero replicas
 * @param composedBundle the ComposedBundle in force; empty: the built-in varroa-starter
 * @param ownVersionProfile the Controller's own spec.versionProfileRef, which beats the bundle's
 * @param inheritedVersionProfile the ControllerClass's, else the ProvisioningDefaults' versionProfileRef
 * @param claimGate spec.buildClaims.gate: queued builds wait for a granted claim (needs the build record store)
 * @param backup backup: schedule, how many to keep, the VolumeSnapshotClass, the quiet-down bound
 * @param hibernation the inactivity policy; empty idleMinutes: never hibernate
 * @param restoreFrom spec.restore.volumeSnapshotName: the VolumeSnapshot JENKINS_HOME starts from
 */
public record ResolvedController(String name, String namespace, String uid, SortedMap<String, String> labels,
    boolean stopped, Optional<String> composedBundle, Optional<String> ownVersionProfile,
    Optional<String> inheritedVersionProfile, Jenkins jenkins, Persistence persistence, Ingress ingress, Agents agents,
    Mite mite, int drainTimeoutSeconds, int commandDeadlineSeconds, PodCustomisation pod,
    List<SecretVariable> secrets, boolean claimGate, Backup backup, Hibernation hibernation,
    Optional<String> restoreFrom) {

  public ResolvedController {
    labels = Collections.unmodifiableSortedMap(new TreeMap<>(labels));
    secrets = List.copyOf(secrets);
  }

  /** Names of every object rendered for this Controller. */
  public ControllerNames names() {
    return ControllerNames.of(name, uid);
  }

  /**
   * The JenkinsVersionProfile in force: the Controller's own versionProfileRef, else the bundle's,
   * else the one the ControllerClass or ProvisioningDefaults name.
   */
  public Optional<String> versionProfile(Optional<ObjectRef> bundleProfile) {
    return ownVersionProfile.or(() -> bundleProfile.map(ref -> ref.name)).or(() -> inheritedVersionProfile);
  }

  /**
   * The Jenkins container.
   *
   * @param image overrides the profile's image when present
   */
  public record Jenkins(Optional<String> image, Optional<String> imagePullPolicy,
      Optional<ResourceRequirements> resources, Optional<String> javaOpts, List<EnvVar> env) {
    public Jenkins {
      env = List.copyOf(env);
    }
  }

  /**
   * Backups of JENKINS_HOME as VolumeSnapshots.
   *
   * @param schedule five-field cron in UTC; empty: on-demand backups only
   * @param volumeSnapshotClassName empty: the CSI driver's default class
   */
  public record Backup(Optional<String> schedule, int keep, Optional<String> volumeSnapshotClassName,
      int quietDownTimeoutSeconds) {}

  /**
   * The inactivity policy.
   *
   * @param idleMinutes empty: never hibernate
   */
  public record Hibernation(Optional<Integer> idleMinutes, int wakeAheadMinutes) {}

  /** The JENKINS_HOME volume claim. */
  public record Persistence(String size, Optional<String> storageClassName) {}

  /** The optional Ingress; host is present whenever enabled is true. */
  public record Ingress(boolean enabled, Optional<String> host, Optional<String> className,
      Optional<String> tlsSecretName) {}

  /** The agents namespace and how agents reach Jenkins. */
  public record Agents(String namespace, AgentsSpec.Tunnel tunnel, List<String> imagePullSecrets,
      Optional<String> knownHosts) {
    public Agents {
      imagePullSecrets = List.copyOf(imagePullSecrets);
    }
  }

  /** The mite sidecar. */
  public record Mite(String image, Optional<String> imagePullPolicy, Optional<ResourceRequirements> resources) {}

  /** podTemplate: labels and annotations merged key by key, spec merged as {@link PodSpecMerge} documents. */
  public record PodCustomisation(SortedMap<String, String> labels, SortedMap<String, String> annotations,
      Optional<ObjectNode> spec) {
    public PodCustomisation {
      labels = Collections.unmodifiableSortedMap(new TreeMap<>(labels));
      annotations = Collections.unmodifiableSortedMap(new TreeMap<>(annotations));
    }
  }
}
