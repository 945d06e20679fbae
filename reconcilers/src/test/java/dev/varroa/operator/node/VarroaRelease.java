package dev.varroa.operator.node;

import dev.varroa.testfixtures.helm.HelmChart;
import dev.varroa.testfixtures.node.RealNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;

/**
 * The chart installed on the real node with real helm, as a user runs it: `helm install` and `helm uninstall` of
 * release varroa, with the images the loopback registry holds.
 */
final class VarroaRelease implements AutoCloseable {
  static final String NAME = "varroa";
  private static final Duration HELM_DEADLINE = Duration.ofMinutes(10);

  private final RealNode node;
  private final HelmChart chart = HelmChart.varroa();
  private final String namespace;

  VarroaRelease(RealNode node, String namespace) {
    this.node = node;
    this.namespace = namespace;
  }

  /** The values every install here takes: Varroa's images from the loopback registry, NATS from its test image. */
  static List<String> imageValues(NodeImages images) {
    return List.of(
        "image.registry=" + images.registry(),
        "image.tag=" + images.productTag(),
        "nats.image.repository=" + images.testRepository("nats"),
        "nats.image.tag=" + images.testTags().get("nats"));
  }

  HelmChart.Result install(List<String> sets) {
    return helm(sets, "install", NAME, chart.chartDirectory().toString(), "--namespace", namespace,
        "--create-namespace", "--kubeconfig", node.kubeconfig().toString());
  }

  /** helm upgrade with the values of the install kept, and these set over them. */
  HelmChart.Result upgrade(List<String> sets) {
    return helm(sets, "upgrade", NAME, chart.chartDirectory().toString(), "--namespace", namespace,
        "--reuse-values", "--kubeconfig", node.kubeconfig().toString());
  }

  /** helm with these arguments and each value as --set; fails with helm's output when it does. */
  private HelmChart.Result helm(List<String> sets, String... arguments) {
    List<String> args = new ArrayList<>(List.of(arguments));
    sets.forEach(s -> {
      args.add("--set");
      args.add(s);
    });
    return chart.run(HELM_DEADLINE, args).requireSuccess();
  }

  HelmChart.Result uninstall() {
    return chart.run(HELM_DEADLINE, List.of("uninstall", NAME, "--namespace", namespace, "--kubeconfig",
        node.kubeconfig().toString(), "--wait", "--timeout", "5m")).requireSuccess();
  }

  /** Waits until every pod of the namespace is Ready (and none is left pending); fails naming those that are not. */
  static void awaitPodsReady(KubernetesClient client, String namespace, int atLeast, Duration deadline) {
    await("every pod Ready in " + namespace).atMost(deadline).pollInterval(Duration.ofSeconds(1))
        .failFast(() -> crashLooping(client, namespace))
        .until(() -> notReady(client, namespace, atLeast).isEmpty());
  }

  /** The pods that are not Ready, each with its phase and waiting reason; "none" when fewer than atLeast exist. */
  static Map<String, String> notReady(KubernetesClient client, String namespace, int atLeast) {
    List<Pod> pods = client.pods().inNamespace(namespace).list().getItems();
    if (pods.size() < atLeast) {
      return Map.of("pods", pods.size() + " of at least " + atLeast);
    }
    return pods.stream().filter(p -> !ready(p))
        .collect(Collectors.toMap(p -> p.getMetadata().getName(), VarroaRelease::describe));
  }

  static boolean ready(Pod pod) {
    return pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions().stream()
        .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"))
        && pod.getMetadata().getDeletionTimestamp() == null;
  }

  private static boolean crashLooping(KubernetesClient client, String namespace) {
    for (Pod pod : client.pods().inNamespace(namespace).list().getItems()) {
      if (pod.getStatus().getContainerStatuses() == null) {
        continue;
      }
      for (var container : pod.getStatus().getContainerStatuses()) {
        if (container.getRestartCount() != null && container.getRestartCount() >= 5) {
          // the container's last words go with the node: say them before failing
          System.err.println("pod " + pod.getMetadata().getName() + " container " + container.getName()
              + " restarted " + container.getRestartCount() + " times; last state " + container.getLastState()
              + "; its previous log:\n" + previousLog(client, pod, container.getName()));
          return true;
        }
      }
    }
    return false;
  }

  private static String previousLog(KubernetesClient client, Pod pod, String container) {
    try {
      return client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
          .inContainer(container).terminated().tailingLines(40).getLog();
    } catch (RuntimeException e) {
      return "(not readable: " + e.getMessage() + ")";
    }
  }

  static String describe(Pod pod) {
    StringBuilder out = new StringBuilder(pod.getStatus() == null ? "?" : pod.getStatus().getPhase());
    if (pod.getStatus() != null && pod.getStatus().getContainerStatuses() != null) {
      pod.getStatus().getContainerStatuses().forEach(s -> {
        out.append(' ').append(s.getName()).append(s.getReady() ? ":ready" : ":not-ready").append("/restarts=")
            .append(s.getRestartCount());
        if (s.getState() != null && s.getState().getWaiting() != null) {
          out.append('/').append(s.getState().getWaiting().getReason());
        }
      });
    }
    if (pod.getStatus() != null && pod.getStatus().getConditions() != null) {
      pod.getStatus().getConditions().stream().filter(c -> !"True".equals(c.getStatus()))
          .map(PodCondition::getMessage).filter(m -> m != null).forEach(m -> out.append(" (").append(m).append(')'));
    }
    return out.toString();
  }

  @Override
  public void close() {
    chart.close();
  }
}
