package dev.varroa.operator.demo;

import dev.varroa.testfixtures.helm.HelmChart;
import dev.varroa.testfixtures.kube.KubeApiServer;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code make install-dry-run}: the chart installed with {@code helm install --dry-run=server} into a real API
 * server started here, with the images {@code make images} pushed (their registry passed as image.registry), in a
 * namespace that enforces the restricted Pod Security level. Prints helm's answer; exits 1 when helm refuses.
 *
 * <p>Arguments are passed to helm as they are, e.g. {@code --set image.registry=127.0.0.1:5000} or
 * {@code -f chart/values-hive.yaml --set bus.url=tls://nats.example.com:4222}.
 */
public final class InstallDryRun {
  private InstallDryRun() {
  }

  public static void main(String[] args) throws Exception {
    try (KubeApiServer kube = KubeApiServer.start(); HelmChart chart = HelmChart.varroa()) {
      kube.client().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("varroa-system")
          .addToLabels("pod-security.kubernetes.io/enforce", "restricted")
          .addToLabels("pod-security.kubernetes.io/warn", "restricted").endMetadata().build()).create();
      Path kubeconfig = kube.writeKubeconfig(Files.createTempFile("varroa-install-dry-run", ".yaml"));
      List<String> helm = new ArrayList<>(List.of("install", "varroa", chart.chartDirectory().toString(),
          "-n", "varroa-system", "--dry-run=server", "--kubeconfig", kubeconfig.toString()));
      helm.addAll(List.of(args));
      HelmChart.Result result = chart.run(helm);
      System.out.println(result.output());
      Files.deleteIfExists(kubeconfig);
      if (!result.succeeded() || result.output().contains("PodSecurity")) {
        System.err.println("install-dry-run: helm " + String.join(" ", args) + " was refused (exit "
            + result.exitCode() + ")");
        System.exit(1);
      }
      System.out.println("install-dry-run: helm install --dry-run=server accepted by the API server at "
          + kube.client().getMasterUrl());
    }
  }
}
