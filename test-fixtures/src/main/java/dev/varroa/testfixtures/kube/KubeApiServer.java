package dev.varroa.testfixtures.kube;

import dev.varroa.testfixtures.process.LoopbackPort;
import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.fabric8.kubeapitest.KubeAPITestException;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** A running kube-apiserver with etcd, started from the locally built binaries in offline mode. */
public final class KubeApiServer implements AutoCloseable {
  static final Duration CRD_ESTABLISHED_TIMEOUT = Duration.ofSeconds(60);
  static final Duration KUBECTL_TIMEOUT = Duration.ofSeconds(60);
  private static final int START_ATTEMPTS = 2;
  private static final String MISSING_BINARIES =
      "kube-apiserver, etcd or kubectl not found under ~/.kubeapitest/k8s/: run `make deps`"
          + " (it runs test-fixtures/kube/install.sh, which builds them from Go modules)";

  private final KubeAPIServer server;
  private final String kubeconfigYaml;
  private final KubernetesClient client;
  private Path kubeconfigFile;

  private KubeApiServer(KubeAPIServer server) {
    this.server = server;
    this.kubeconfigYaml = server.getKubeConfigYaml();
    this.client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeconfigYaml)).build();
  }

  /**
   * Starts etcd and kube-apiserver on free ports; never downloads anything. kube-api-test picks its ports by a bind
   * check and binds them only when the processes are up, and writes its certificates to ~/.kubeapitest on first
   * use: test JVMs running side by side (Surefire forks) take turns here, so neither races the other.
   */
  public static KubeApiServer start() {
    return LoopbackPort.startExclusively(KubeApiServer::startOnce);
  }

  private static KubeApiServer startOnce() {
    KubeAPITestException failure = null;
    // A second attempt, on new ports, for a port some other program took between kube-api-test's check and bind.
    for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
      KubeAPIServer server =
          new KubeAPIServer(
              KubeAPIServerConfigBuilder.anAPIServerConfig()
                  .withOfflineMode(true)
                  .withUpdateKubeConfig(false)
                  .build());
      try {
        server.start();
        return new KubeApiServer(server);
      } catch (KubeAPITestException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
        stopQuietly(server, failure);
      }
    }
    throw new IllegalStateException(MISSING_BINARIES + " (" + failure.getMessage() + ")", failure);
  }

  private static void stopQuietly(KubeAPIServer server, Exception failure) {
    try {
      server.stop();
    } catch (RuntimeException stopFailed) {
      failure.addSuppressed(stopFailed);
    }
  }

  public KubernetesClient client() {
    return client;
  }

  /** A kubeconfig with admin rights, for kubectl or a second client. */
  public String kubeconfigYaml() {
    return kubeconfigYaml;
  }

  /** Writes the kubeconfig to a file, e.g. for kubectl in a demo. */
  public Path writeKubeconfig(Path file) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      return Files.writeString(file, kubeconfigYaml);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write kubeconfig to " + file, e);
    }
  }

  /** Runs the locally built kubectl against this server, as a user would, and returns its output. */
  public String kubectl(String... args) {
    List<String> command = new ArrayList<>(List.of(kubectlBinary().toString(), "--kubeconfig", kubeconfigFile().toString()));
    command.addAll(List.of(args));
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      if (!process.waitFor(KUBECTL_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("kubectl did not answer in " + KUBECTL_TIMEOUT.toSeconds() + " s: " + command);
      }
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (process.exitValue() != 0) {
        throw new IllegalStateException("kubectl " + String.join(" ", args) + " failed: " + out);
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running kubectl", e);
    }
  }

  private synchronized Path kubeconfigFile() {
    if (kubeconfigFile == null) {
      try {
        kubeconfigFile = writeKubeconfig(Files.createTempFile("varroa-kubeconfig", ".yaml"));
        kubeconfigFile.toFile().deleteOnExit();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write a kubeconfig file", e);
      }
    }
    return kubeconfigFile;
  }

  /** The kubectl built next to the API server binaries. */
  public Path kubectlBinary() {
    Path k8s = Path.of(System.getProperty("user.home"), ".kubeapitest", "k8s");
    try (Stream<Path> dirs = Files.list(k8s)) {
      return dirs.map(d -> d.resolve("kubectl")).filter(Files::isExecutable)
          .max(Comparator.comparing(p -> p.getParent().getFileName().toString()))
          .orElseThrow(() -> new IllegalStateException(MISSING_BINARIES));
    } catch (IOException e) {
      throw new UncheckedIOException(MISSING_BINARIES, e);
    }
  }

  /** Applies every CRD file in the folder and waits until the API server serves each. */
  public List<CustomResourceDefinition> installCrds(Path folder) {
    List<CustomResourceDefinition> crds;
    try (Stream<Path> files = Files.list(folder)) {
      crds = files.filter(f -> f.toString().matches(".*\\.ya?ml$")).sorted().map(this::loadCrd).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read CRDs from " + folder, e);
    }
    for (CustomResourceDefinition crd : crds) {
      client.apiextensions().v1().customResourceDefinitions().resource(crd).forceConflicts().serverSideApply();
    }
    for (CustomResourceDefinition crd : crds) {
      client.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName())
          .waitUntilCondition(KubeApiServer::established, CRD_ESTABLISHED_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }
    return crds;
  }

  private CustomResourceDefinition loadCrd(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read CRD " + file, e);
    }
  }

  private static boolean established(CustomResourceDefinition crd) {
    return crd != null
        && crd.getStatus() != null
        && crd.getStatus().getConditions().stream()
            .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  @Override
  public void close() {
    client.close();
    server.stop();
  }
}
