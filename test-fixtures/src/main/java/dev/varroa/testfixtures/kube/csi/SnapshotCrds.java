package dev.varroa.testfixtures.kube.csi;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The CSI snapshot CRDs (snapshot.storage.k8s.io/v1 VolumeSnapshot, VolumeSnapshotContent, VolumeSnapshotClass) of
 * the external-snapshotter, as {@code test-fixtures/kube/snapshot-crds.sh} caches them from its Go module.
 */
public final class SnapshotCrds {
  /** The external-snapshotter client module version; test-fixtures/kube/snapshot-crds.sh pins the same. */
  public static final String VERSION = "8.4.0";
  public static final String GROUP = "snapshot.storage.k8s.io";
  static final List<String> FILES = List.of(
      "snapshot.storage.k8s.io_volumesnapshotclasses.yaml",
      "snapshot.storage.k8s.io_volumesnapshotcontents.yaml",
      "snapshot.storage.k8s.io_volumesnapshots.yaml");
  private static final List<String> NAMES = List.of(
      "volumesnapshotclasses." + GROUP, "volumesnapshotcontents." + GROUP, "volumesnapshots." + GROUP);
  private static final Duration ESTABLISHED_TIMEOUT = Duration.ofSeconds(60);

  private SnapshotCrds() {}

  /** Where snapshot-crds.sh puts the CRD files: {@code ${VARROA_CACHE:-~/.cache/varroa}/snapshot-crds/<version>/}. */
  public static Path folder() {
    String cache = System.getenv("VARROA_CACHE");
    Path root = cache == null || cache.isBlank()
        ? Path.of(System.getProperty("user.home"), ".cache", "varroa")
        : Path.of(cache);
    return root.resolve("snapshot-crds").resolve(VERSION);
  }

  /** Applies the three CRDs (server-side apply, so a second call changes nothing) and waits until each is Established. */
  public static List<CustomResourceDefinition> install(KubernetesClient client) {
    List<CustomResourceDefinition> crds = new ArrayList<>();
    for (Path file : files(folder())) {
      crds.add(load(client, file));
    }
    for (CustomResourceDefinition crd : crds) {
      client.apiextensions().v1().customResourceDefinitions().resource(crd).forceConflicts().serverSideApply();
    }
    for (CustomResourceDefinition crd : crds) {
      client.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName())
          .waitUntilCondition(SnapshotCrds::established, ESTABLISHED_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }
    return crds;
  }

  /** Whether the API server already has all three CRDs (Established or not). */
  public static boolean installed(KubernetesClient client) {
    return NAMES.stream().allMatch(n -> client.apiextensions().v1().customResourceDefinitions().withName(n).get() != null);
  }

  /** The three CRD files in the folder; a clear error naming the script that fetches them when one is missing. */
  static List<Path> files(Path folder) {
    List<Path> files = FILES.stream().map(folder::resolve).toList();
    for (Path file : files) {
      if (!Files.isRegularFile(file)) {
        throw new IllegalStateException("snapshot CRD " + file.getFileName() + " is missing from " + folder
            + ": run test-fixtures/kube/snapshot-crds.sh (or `make deps`), which fetches them from the Go module"
            + " github.com/kubernetes-csi/external-snapshotter/client/v8@v" + VERSION + " into that folder");
      }
    }
    return files;
  }

  private static CustomResourceDefinition load(KubernetesClient client, Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read snapshot CRD " + file, e);
    }
  }

  private static boolean established(CustomResourceDefinition crd) {
    return crd != null && crd.getStatus() != null && crd.getStatus().getConditions().stream()
        .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
  }
}
