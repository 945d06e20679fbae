package dev.varroa.testfixtures.kube.job;

import dev.varroa.testfixtures.kube.csi.CsiStandIn;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The kubelet's part before a container starts, on this machine: each volume of the pod as a local folder (a claim
 * as its CSI stand-in folder, emptyDir as a scratch folder, a ConfigMap or Secret as files) and the container's env
 * with every valueFrom read.
 */
final class PodFiles {
  private final KubernetesClient client;
  private final CsiStandIn csi;

  PodFiles(KubernetesClient client, CsiStandIn csi) {
    this.client = client;
    this.csi = csi;
  }

  /** The claims the pod mounts that are not Bound yet; the pod cannot start before they are. */
  List<String> unboundClaims(Pod pod) {
    String namespace = pod.getMetadata().getNamespace();
    return pod.getSpec().getVolumes().stream()
        .filter(v -> v.getPersistentVolumeClaim() != null)
        .map(v -> v.getPersistentVolumeClaim().getClaimName())
        .filter(name -> {
          PersistentVolumeClaim claim = client.persistentVolumeClaims().inNamespace(namespace).withName(name).get();
          return claim == null || claim.getStatus() == null || !"Bound".equals(claim.getStatus().getPhase());
        })
        .toList();
  }

  /** Mount path to local path for each of the container's volumeMounts (subPath included). */
  Map<String, Path> mounts(Pod pod, Container container, Path scratch) {
    Map<String, Path> volumes = new LinkedHashMap<>();
    for (Volume volume : pod.getSpec().getVolumes()) {
      volumes.put(volume.getName(), volumeFolder(pod, volume, scratch.resolve("volumes").resolve(volume.getName())));
    }
    Map<String, Path> mounts = new LinkedHashMap<>();
    for (VolumeMount mount : Optional.ofNullable(container.getVolumeMounts()).orElse(List.of())) {
      Path base = volumes.get(mount.getName());
      if (base == null) {
        throw new IllegalArgumentException("container " + container.getName() + " mounts volume " + mount.getName()
            + ", which the pod does not declare in spec.volumes");
      }
      Path local = mount.getSubPath() == null || mount.getSubPath().isEmpty() ? base : base.resolve(mount.getSubPath());
      createDirectories(local);
      mounts.put(mount.getMountPath(), local);
    }
    return mounts;
  }

  private Path volumeFolder(Pod pod, Volume volume, Path scratchFolder) {
    String namespace = pod.getMetadata().getNamespace();
    if (volume.getPersistentVolumeClaim() != null) {
      return csi.folder(namespace, volume.getPersistentVolumeClaim().getClaimName());
    }
    if (volume.getEmptyDir() != null) {
      return createDirectories(scratchFolder);
    }
    if (volume.getConfigMap() != null) {
      ConfigMap map = client.configMaps().inNamespace(namespace).withName(volume.getConfigMap().getName()).get();
      Map<String, String> data = map == null ? Map.of() : Optional.ofNullable(map.getData()).orElse(Map.of());
      return writeFiles(scratchFolder, data, volume.getConfigMap().getItems());
    }
    if (volume.getSecret() != null) {
      Secret secret = client.secrets().inNamespace(namespace).withName(volume.getSecret().getSecretName()).get();
      return writeFiles(scratchFolder, decoded(secret), volume.getSecret().getItems());
    }
    throw new IllegalArgumentException("the Job stand-in cannot mount volume " + volume.getName() + " of pod "
        + namespace + "/" + pod.getMetadata().getName() + ": it mounts persistentVolumeClaim, emptyDir, configMap"
        + " and secret volumes");
  }

  /** The container's env in order, each valueFrom read now, envFrom first as Kubernetes orders it. */
  Map<String, String> environment(Pod pod, Container container) {
    String namespace = pod.getMetadata().getNamespace();
    Map<String, String> env = new LinkedHashMap<>();
    for (EnvFromSource from : Optional.ofNullable(container.getEnvFrom()).orElse(List.of())) {
      String prefix = Optional.ofNullable(from.getPrefix()).orElse("");
      if (from.getConfigMapRef() != null) {
        ConfigMap map = client.configMaps().inNamespace(namespace).withName(from.getConfigMapRef().getName()).get();
        if (map != null && map.getData() != null) {
          map.getData().forEach((k, v) -> env.put(prefix + k, v));
        }
      }
      if (from.getSecretRef() != null) {
        decoded(client.secrets().inNamespace(namespace).withName(from.getSecretRef().getName()).get())
            .forEach((k, v) -> env.put(prefix + k, v));
      }
    }
    for (EnvVar variable : Optional.ofNullable(container.getEnv()).orElse(List.of())) {
      env.put(variable.getName(), variable.getValueFrom() == null ? variable.getValue() : valueFrom(pod, variable));
    }
    return env;
  }

  private String valueFrom(Pod pod, EnvVar variable) {
    var from = variable.getValueFrom();
    String namespace = pod.getMetadata().getNamespace();
    if (from.getFieldRef() != null) {
      return switch (from.getFieldRef().getFieldPath()) {
        case "metadata.name" -> pod.getMetadata().getName();
        case "metadata.namespace" -> namespace;
        case "metadata.uid" -> pod.getMetadata().getUid();
        case "spec.serviceAccountName" -> pod.getSpec().getServiceAccountName();
        case "status.podIP", "status.hostIP" -> "127.0.0.1";
        default -> throw new IllegalArgumentException("env " + variable.getName() + ": the Job stand-in cannot read"
            + " fieldRef " + from.getFieldRef().getFieldPath());
      };
    }
    if (from.getConfigMapKeyRef() != null) {
      ConfigMap map = client.configMaps().inNamespace(namespace).withName(from.getConfigMapKeyRef().getName()).get();
      return map == null || map.getData() == null ? null : map.getData().get(from.getConfigMapKeyRef().getKey());
    }
    if (from.getSecretKeyRef() != null) {
      return decoded(client.secrets().inNamespace(namespace).withName(from.getSecretKeyRef().getName()).get())
          .get(from.getSecretKeyRef().getKey());
    }
    throw new IllegalArgumentException("env " + variable.getName() + ": the Job stand-in reads fieldRef,"
        + " configMapKeyRef and secretKeyRef only");
  }

  private static Map<String, String> decoded(Secret secret) {
    Map<String, String> data = new LinkedHashMap<>();
    if (secret != null && secret.getData() != null) {
      secret.getData().forEach((k, v) -> data.put(k, new String(Base64.getDecoder().decode(v), StandardCharsets.UTF_8)));
    }
    return data;
  }

  private static Path writeFiles(Path folder, Map<String, String> data, List<KeyToPath> items) {
    createDirectories(folder);
    Map<String, String> files = new LinkedHashMap<>();
    if (items == null || items.isEmpty()) {
      files.putAll(data);
    } else {
      items.forEach(item -> files.put(item.getPath(), data.get(item.getKey())));
    }
    files.forEach((path, content) -> {
      Path file = folder.resolve(path);
      createDirectories(file.getParent());
      try {
        Files.writeString(file, content == null ? "" : content);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write " + file, e);
      }
    });
    return folder;
  }

  private static Path createDirectories(Path folder) {
    try {
      return Files.createDirectories(folder);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + folder, e);
    }
  }
}
