package dev.varroa.api;

import dev.varroa.testfixtures.kube.KubeApiServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the locally built kubectl against a test API server, as a user would. */
final class Kubectl {
  private Kubectl() {}

  static String run(KubeApiServer kube, String... args) throws IOException, InterruptedException {
    Path kubeconfig = kube.writeKubeconfig(Files.createTempFile("kubeconfig", ".yaml"));
    List<String> command = new ArrayList<>(List.of(kube.kubectl().toString(), "--kubeconfig", kubeconfig.toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("kubectl did not finish in 60 s: " + command);
    }
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (process.exitValue() != 0) {
      throw new IllegalStateException("kubectl " + String.join(" ", args) + " failed: " + out);
    }
    return out;
  }
}
