package dev.varroa.operator.node;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.ExecWatch;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** A command in a container of a pod on the real node (kubectl exec): through the API server, kubelet and containerd. */
final class PodExec {
  private PodExec() {}

  /** Runs the command and returns its standard output; fails with its error output when it exits non-zero. */
  static String run(KubernetesClient client, Pod pod, String container, Duration deadline, String... command)
      throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (ExecWatch exec = client.pods().inNamespace(pod.getMetadata().getNamespace())
        .withName(pod.getMetadata().getName()).inContainer(container).writingOutput(out).writingError(err)
        .exec(command)) {
      Integer code = exec.exitCode().get(deadline.toSeconds(), TimeUnit.SECONDS);
      if (code == null || code != 0) {
        throw new IllegalStateException(String.join(" ", command) + " in " + pod.getMetadata().getName() + "/"
            + container + " exited with " + code + ": " + err.toString(StandardCharsets.UTF_8));
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
