package dev.varroa.operator.install;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One container of a chart render, run as a local process where no kubelet is: its environment resolved against a
 * real API server as the kubelet resolves it (values, the pod's name and namespace, Secret and ConfigMap keys), and
 * its Secret, ConfigMap and emptyDir volumes written to a local folder, with every value that points into a mount
 * pointed at that folder instead. What the process then reads is what the pod would read.
 */
public final class ChartContainer {
  private final PodSpec pod;
  private final Container container;
  private final List<String> claims;

  private ChartContainer(PodSpec pod, Container container, List<String> claims) {
    this.pod = pod;
    this.container = container;
    this.claims = claims;
  }

  /** @param container the container's name in the pod template */
  public static ChartContainer of(PodSpec pod, String container) {
    return of(pod, container, List.of());
  }

  /** A StatefulSet's container: its claim templates' volumes are local folders, as a bound volume would be. */
  public static ChartContainer of(StatefulSet statefulSet, String container) {
    return of(statefulSet.getSpec().getTemplate().getSpec(), container,
        statefulSet.getSpec().getVolumeClaimTemplates().stream().map(c -> c.getMetadata().getName()).toList());
  }

  private static ChartContainer of(PodSpec pod, String container, List<String> claims) {
    return new ChartContainer(pod, pod.getContainers().stream().filter(c -> c.getName().equals(container)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("the rendered pod has no container '" + container + "': it has "
            + pod.getContainers().stream().map(Container::getName).toList())), claims);
  }

  /**
   * The environment of the container in pod {@code podName} of {@code namespace}, reading the API server now.
   *
   * @param volumes where the mounted volumes go, one folder per volume
   */
  public Map<String, String> environment(KubernetesClient client, String namespace, String podName, Path volumes)
      throws IOException {
    Map<String, String> mounts = mountVolumes(client, namespace, volumes);
    Map<String, String> env = new LinkedHashMap<>();
    for (EnvVar variable : container.getEnv()) {
      String value = variable.getValueFrom() == null ? variable.getValue()
          : valueFrom(client, namespace, podName, variable.getName(), variable.getValueFrom());
      env.put(variable.getName(), pointedAtFolders(value == null ? "" : value, mounts));
    }
    return env;
  }

  /** Writes each mounted volume; returns mount path to local folder, longest path first. */
  private Map<String, String> mountVolumes(KubernetesClient client, String namespace, Path volumes) throws IOException {
    Map<String, String> mounts = new LinkedHashMap<>();
    List<VolumeMount> sorted = container.getVolumeMounts().stream()
        .sorted(Comparator.comparingInt((VolumeMount m) -> m.getMountPath().length()).reversed()).toList();
    for (VolumeMount mount : sorted) {
      if (claims.contains(mount.getName())) {
        mounts.put(mount.getMountPath(), Files.createDirectories(volumes.resolve(mount.getName())).toString());
        continue;
      }
      Volume volume = pod.getVolumes().stream().filter(v -> v.getName().equals(mount.getName())).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("container " + container.getName() + " mounts volume '"
              + mount.getName() + "', which the pod does not declare"));
      Path folder = Files.createDirectories(volumes.resolve(volume.getName()));
      if (volume.getSecret() != null) {
        Secret secret = client.secrets().inNamespace(namespace).withName(volume.getSecret().getSecretName()).get();
        if (secret == null) {
          throw new IllegalStateException("Secret " + namespace + "/" + volume.getSecret().getSecretName()
              + " (volume " + volume.getName() + " of " + container.getName() + ") does not exist: the pod would wait"
              + " for it; create it first");
        }
        write(folder, decoded(secret.getData()), volume.getSecret().getItems());
      } else if (volume.getConfigMap() != null) {
        ConfigMap map = client.configMaps().inNamespace(namespace).withName(volume.getConfigMap().getName()).get();
        if (map == null) {
          throw new IllegalStateException("ConfigMap " + namespace + "/" + volume.getConfigMap().getName()
              + " (volume " + volume.getName() + " of " + container.getName() + ") does not exist; create it first");
        }
        write(folder, map.getData(), volume.getConfigMap().getItems());
      } else if (volume.getEmptyDir() == null) {
        throw new IllegalArgumentException("volume " + volume.getName() + " of " + container.getName()
            + " is neither a Secret, a ConfigMap nor an emptyDir: ChartContainer cannot play it");
      }
      mounts.put(mount.getMountPath(), folder.toString());
    }
    return mounts;
  }

  private static void write(Path folder, Map<String, String> data, List<KeyToPath> items) throws IOException {
    if (items == null || items.isEmpty()) {
      for (Map.Entry<String, String> entry : data.entrySet()) {
        Files.writeString(folder.resolve(entry.getKey()), entry.getValue());
      }
      return;
    }
    for (KeyToPath item : items) {
      String value = data.get(item.getKey());
      if (value == null) {
        throw new IllegalStateException("key '" + item.getKey() + "' is missing from the volume's source, which holds "
            + data.keySet());
      }
      Files.writeString(folder.resolve(item.getPath()), value);
    }
  }

  private String valueFrom(KubernetesClient client, String namespace, String podName, String name,
      EnvVarSource source) {
    if (source.getFieldRef() != null) {
      return switch (source.getFieldRef().getFieldPath()) {
        case "metadata.name" -> podName;
        case "metadata.namespace" -> namespace;
        default -> throw new IllegalArgumentException("env " + name + " of " + container.getName() + " reads field "
            + source.getFieldRef().getFieldPath() + ", which ChartContainer does not play");
      };
    }
    if (source.getSecretKeyRef() != null) {
      String secretName = source.getSecretKeyRef().getName();
      Secret secret = client.secrets().inNamespace(namespace).withName(secretName).get();
      String value = secret == null ? null : decoded(secret.getData()).get(source.getSecretKeyRef().getKey());
      if (value == null) {
        throw new IllegalStateException("env " + name + " of " + container.getName() + " needs key '"
            + source.getSecretKeyRef().getKey() + "' of Secret " + namespace + "/" + secretName + ", which is missing");
      }
      return value;
    }
    if (source.getConfigMapKeyRef() != null) {
      ConfigMap map = client.configMaps().inNamespace(namespace).withName(source.getConfigMapKeyRef().getName()).get();
      String value = map == null ? null : map.getData().get(source.getConfigMapKeyRef().getKey());
      if (value == null) {
        throw new IllegalStateException("env " + name + " of " + container.getName() + " needs key '"
            + source.getConfigMapKeyRef().getKey() + "' of ConfigMap " + namespace + "/"
            + source.getConfigMapKeyRef().getName() + ", which is missing");
      }
      return value;
    }
    throw new IllegalArgumentException("env " + name + " of " + container.getName() + " has a valueFrom that "
        + "ChartContainer does not play: " + source);
  }

  private static String pointedAtFolders(String value, Map<String, String> mounts) {
    for (Map.Entry<String, String> mount : mounts.entrySet()) {
      if (value.equals(mount.getKey()) || value.startsWith(mount.getKey() + "/")) {
        return mount.getValue() + value.substring(mount.getKey().length());
      }
    }
    return value;
  }

  private static Map<String, String> decoded(Map<String, String> data) {
    Map<String, String> out = new LinkedHashMap<>();
    if (data != null) {
      data.forEach((k, v) -> out.put(k, new String(Base64.getDecoder().decode(v), StandardCharsets.UTF_8)));
    }
    return out;
  }
}
