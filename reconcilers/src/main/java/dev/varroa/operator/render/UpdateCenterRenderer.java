package dev.varroa.operator.render;

import dev.varroa.api.v1alpha1.UpdateCenterSpec;
import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.operator.render.naming.UpdateCenterNames;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Renders what the operator runs for a managed UpdateCenter, in its own namespace: the wanted-list
 * ConfigMap, the plugin volume's claim, the Service and the Deployment of the update center. The
 * pod passes the restricted Pod Security Standard: non-root (uid 65532), RuntimeDefault seccomp, no
 * capabilities, no privilege escalation, a read-only root file system. Pure.
 */
public final class UpdateCenterRenderer {
  public static final String CONTAINER_NAME = "update-center";
  public static final String NAME_VALUE = "varroa-update-center";
  /** Names the UpdateCenter an object belongs to (its name as a label value). */
  public static final String UPDATE_CENTER_LABEL = "varroa.dev/update-center";
  public static final int HTTP_PORT = 8080;
  public static final int SERVICE_PORT = 80;
  public static final String HTTP_PORT_NAME = "http";
  /** The nonroot user of distroless-style images; numeric so runAsNonRoot can be verified. */
  public static final long RUN_AS_USER = 65532L;
  /** "Resolved default: 10Gi" (spec.managed.storage.size). */
  public static final String DEFAULT_STORAGE_SIZE = "10Gi";
  public static final String STORAGE_PATH = "/var/lib/varroa-update-center";
  public static final String WANTED_PATH = "/etc/varroa-update-center/wanted";
  public static final String SIGNING_PATH = "/etc/varroa-update-center/signing";
  public static final String WANTED_KEY = "plugins.txt";
  /** The Secret files are read by the pod's group only (fsGroup): 0440. */
  static final int SIGNING_FILE_MODE = 0440;
  /** What a container gets when spec.managed.resources is omitted: a small JVM serving files. */
  static final ResourceRequirements DEFAULT_RESOURCES = new ResourceRequirementsBuilder()
      .addToRequests("cpu", new Quantity("50m")).addToRequests("memory", new Quantity("256Mi"))
      .addToLimits("memory", new Quantity("512Mi")).build();
  /** The update center's own settings (dev.varroa.updatecenter.UpdateCenterSettings reads these). */
  static final String ENV_PORT = "VARROA_UC_PORT";
  static final String ENV_STORAGE_DIR = "VARROA_UC_STORAGE_DIR";
  static final String ENV_WANTED_FILE = "VARROA_UC_WANTED_FILE";
  static final String ENV_SIGNING_DIR = "VARROA_UC_SIGNING_DIR";
  static final String ENV_BASE_URL = "VARROA_UC_BASE_URL";
  static final String ENV_UPSTREAM_URL = "VARROA_UC_UPSTREAM_URL";
  static final String ENV_UPSTREAM_PLUGIN_VERSIONS_URL = "VARROA_UC_UPSTREAM_PLUGIN_VERSIONS_URL";

  private UpdateCenterRenderer() {}

  /** ConfigMap, claim, Service, Deployment, in apply order. */
  public static List<HasMetadata> render(ManagedUpdateCenterInput input) {
    return List.of(wantedConfigMap(input), claim(input), service(input), deployment(input));
  }

  public static SortedMap<String, String> labels(String updateCenterName) {
    SortedMap<String, String> labels = new TreeMap<>(selector(updateCenterName));
    labels.put(ControllerLabels.MANAGED_BY, ControllerLabels.MANAGED_BY_VALUE);
    labels.put(UPDATE_CENTER_LABEL, ControllerLabels.value(updateCenterName));
    return labels;
  }

  static SortedMap<String, String> selector(String updateCenterName) {
    return new TreeMap<>(Map.of(ControllerLabels.NAME, NAME_VALUE,
        ControllerLabels.INSTANCE, UpdateCenterNames.of(updateCenterName).deployment()));
  }

  static ConfigMap wantedConfigMap(ManagedUpdateCenterInput input) {
    StringBuilder text = new StringBuilder();
    input.wanted().forEach(p -> text.append(p).append('\n'));
    return new ConfigMapBuilder().withMetadata(metadata(input, input.names().wantedConfigMap()))
        .withData(Map.of(WANTED_KEY, text.toString())).build();
  }

  static PersistentVolumeClaim claim(ManagedUpdateCenterInput input) {
    UpdateCenterSpec.Storage storage = Optional.ofNullable(spec(input).storage).orElseGet(UpdateCenterSpec.Storage::new);
    return new PersistentVolumeClaimBuilder().withMetadata(metadata(input, input.names().claim()))
        .withNewSpec()
        .withAccessModes("ReadWriteOnce")
        .withStorageClassName(storage.storageClassName)
        .withNewResources().addToRequests("storage", new Quantity(Optional.ofNullable(storage.size)
            .orElse(DEFAULT_STORAGE_SIZE))).endResources()
        .endSpec().build();
  }

  static Service service(ManagedUpdateCenterInput input) {
    String name = input.updateCenter().getMetadata().getName();
    return new ServiceBuilder().withMetadata(metadata(input, input.names().service()))
        .withNewSpec()
        .withType("ClusterIP")
        .withSelector(selector(name))
        .addNewPort().withName(HTTP_PORT_NAME).withPort(SERVICE_PORT).withTargetPort(new IntOrString(HTTP_PORT_NAME))
        .withProtocol("TCP").endPort()
        .endSpec().build();
  }

  static Deployment deployment(ManagedUpdateCenterInput input) {
    String name = input.updateCenter().getMetadata().getName();
    UpdateCenterNames names = input.names();
    return new DeploymentBuilder().withMetadata(metadata(input, names.deployment()))
        .withNewSpec()
        .withReplicas(1)
        // one pod at a time on a ReadWriteOnce volume
        .withNewStrategy().withType("Recreate").endStrategy()
        .withNewSelector().withMatchLabels(selector(name)).endSelector()
        .withNewTemplate()
        .withNewMetadata().withLabels(labels(name)).endMetadata()
        .withNewSpec()
        .withEnableServiceLinks(false)
        .withAutomountServiceAccountToken(false)
        .withNewSecurityContext()
        .withRunAsNonRoot(true).withRunAsUser(RUN_AS_USER).withRunAsGroup(RUN_AS_USER).withFsGroup(RUN_AS_USER)
        .withFsGroupChangePolicy("OnRootMismatch")
        .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
        .endSecurityContext()
        .addNewContainer()
        .withName(CONTAINER_NAME)
        .withImage(input.image())
        .addNewPort().withName(HTTP_PORT_NAME).withContainerPort(HTTP_PORT).withProtocol("TCP").endPort()
        .withEnv(env(input))
        .withResources(Optional.ofNullable(spec(input).resources)
            .map(r -> new ResourceRequirementsBuilder(r).build()).orElse(DEFAULT_RESOURCES))
        .withReadinessProbe(probe(3))
        .withLivenessProbe(probe(6))
        .withNewSecurityContext()
        .withAllowPrivilegeEscalation(false).withReadOnlyRootFilesystem(true).withRunAsNonRoot(true)
        .withRunAsUser(RUN_AS_USER).withRunAsGroup(RUN_AS_USER)
        .withNewCapabilities().withDrop("ALL").endCapabilities()
        .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
        .endSecurityContext()
        .addNewVolumeMount().withName("storage").withMountPath(STORAGE_PATH).endVolumeMount()
        .addNewVolumeMount().withName("wanted").withMountPath(WANTED_PATH).withReadOnly(true).endVolumeMount()
        .addNewVolumeMount().withName("signing").withMountPath(SIGNING_PATH).withReadOnly(true).endVolumeMount()
        // the JVM writes temporary files; the root file system is read-only
        .addNewVolumeMount().withName("tmp").withMountPath("/tmp").endVolumeMount()
        .endContainer()
        .addNewVolume().withName("storage").withNewPersistentVolumeClaim().withClaimName(names.claim())
        .endPersistentVolumeClaim().endVolume()
        .addNewVolume().withName("wanted").withNewConfigMap().withName(names.wantedConfigMap()).endConfigMap().endVolume()
        .addNewVolume().withName("signing").withNewSecret().withSecretName(input.signingSecret())
        .withDefaultMode(SIGNING_FILE_MODE).endSecret().endVolume()
        .addNewVolume().withName("tmp").withNewEmptyDir().endEmptyDir().endVolume()
        .endSpec()
        .endTemplate()
        .endSpec().build();
  }

  static List<EnvVar> env(ManagedUpdateCenterInput input) {
    List<EnvVar> env = new ArrayList<>(List.of(
        new EnvVar(ENV_PORT, String.valueOf(HTTP_PORT), null),
        new EnvVar(ENV_STORAGE_DIR, STORAGE_PATH, null),
        new EnvVar(ENV_WANTED_FILE, WANTED_PATH + "/" + WANTED_KEY, null),
        new EnvVar(ENV_SIGNING_DIR, SIGNING_PATH, null),
        new EnvVar(ENV_BASE_URL, input.names().baseUrl(input.namespace()), null)));
    UpdateCenterSpec.Upstream upstream = spec(input).upstream;
    if (upstream != null && upstream.url != null) {
      env.add(new EnvVar(ENV_UPSTREAM_URL, upstream.url, null));
      if (upstream.pluginVersionsURL != null) {
        env.add(new EnvVar(ENV_UPSTREAM_PLUGIN_VERSIONS_URL, upstream.pluginVersionsURL, null));
      }
    }
    return env;
  }

  private static Probe probe(int failureThreshold) {
    return new ProbeBuilder().withNewHttpGet().withPath("/healthz").withPort(new IntOrString(HTTP_PORT_NAME)).endHttpGet()
        .withPeriodSeconds(10).withTimeoutSeconds(5).withFailureThreshold(failureThreshold).build();
  }

  private static ObjectMeta metadata(ManagedUpdateCenterInput input, String name) {
    return new ObjectMetaBuilder().withName(name).withNamespace(input.namespace())
        .withLabels(labels(input.updateCenter().getMetadata().getName())).build();
  }

  private static UpdateCenterSpec.Managed spec(ManagedUpdateCenterInput input) {
    return input.updateCenter().getSpec().managed;
  }
}
