package dev.varroa.testfixtures.node;

import dev.varroa.testfixtures.ProjectLayout;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real single-node Kubernetes on this machine (containerd, runc, kubelet, kube-proxy, CoreDNS; the scripts in
 * test-fixtures/node/), as its {@code node.env} describes it: the admin kubeconfig, the node's address and the
 * registry its containerd pulls from. {@link #up} starts one unless one is running; {@link #down} takes it away.
 */
public final class RealNode {
  private static final Duration UP_DEADLINE = Duration.ofMinutes(20);
  private static final Duration DOWN_DEADLINE = Duration.ofMinutes(3);

  private final Path kubeconfig;
  private final Map<String, String> facts;

  private RealNode(Path kubeconfig, Map<String, String> facts) {
    this.kubeconfig = kubeconfig;
    this.facts = facts;
  }

  /** The node scripts' folder. */
  public static Path scripts() {
    return ProjectLayout.root().resolve("test-fixtures/node");
  }

  /** Whether up.sh would find a node already running (its API server answering); such a node is not ours to stop. */
  public static boolean running() {
    return run(List.of("bash", "-c", "source \"$0/node.sh\" && node_pid kubelet >/dev/null && node_api_ready",
        scripts().toString()), Duration.ofSeconds(20)).exitCode() == 0;
  }

  /** Brings the node up (up.sh: installs what is missing, reuses a running node) and reads its facts. */
  public static RealNode up() {
    Script result = run(List.of(scripts().resolve("up.sh").toString()), UP_DEADLINE);
    if (result.exitCode() != 0) {
      throw new IllegalStateException("test-fixtures/node/up.sh failed (exit " + result.exitCode() + "); its output:\n"
          + result.output());
    }
    List<String> lines = result.output().lines().toList();
    Path kubeconfig = Path.of(lines.get(lines.size() - 1).trim());
    return new RealNode(kubeconfig, readFacts(kubeconfig.resolveSibling("node.env")));
  }

  /** Takes the node away (down.sh), leaving nothing on the machine. */
  public static void down() {
    Script result = run(List.of(scripts().resolve("down.sh").toString()), DOWN_DEADLINE);
    if (result.exitCode() != 0) {
      throw new IllegalStateException("test-fixtures/node/down.sh failed (exit " + result.exitCode() + "):\n"
          + result.output());
    }
  }

  /** What this machine looks like to a node (leftovers.sh): equal before up and after down. */
  public static List<String> machineState() {
    Script result = run(List.of(scripts().resolve("leftovers.sh").toString()), Duration.ofMinutes(1));
    return result.output().lines().sorted().toList();
  }

  /**
   * Removes images from the node's containerd, so the next pod pulls what the registry holds now: an image rebuilt
   * under the same tag (`make images`) would otherwise be the one the node pulled first (imagePullPolicy IfNotPresent).
   */
  public void forgetImages(List<String> references) {
    List<String> command = new ArrayList<>(List.of("ctr", "--address", kubeconfig.resolveSibling("ctr/containerd.sock")
        .toString(), "-n", "k8s.io", "images", "rm"));
    command.addAll(references);
    // ctr exits non-zero when one of them was never pulled; that one is forgotten already
    run(command, Duration.ofMinutes(1));
  }

  public Path kubeconfig() {
    return kubeconfig;
  }

  /** The node's address: pods reach the API server there, and the node's Services from this machine. */
  public String nodeIp() {
    return facts.get("NODE_IP");
  }

  /** host:port of the plain-HTTP registry containerd pulls from, when up.sh found one. */
  public Optional<String> registry() {
    return Optional.ofNullable(facts.get("REGISTRY")).filter(r -> !r.isBlank());
  }

  /** The kubectl of the node's Kubernetes version, which up.sh built (kubectl with --kubeconfig). */
  public Path kubectl() {
    return Path.of(facts.getOrDefault("KUBECTL", "kubectl"));
  }

  /** A client with the node's admin credentials (system:masters); close it. */
  public KubernetesClient adminClient() {
    try {
      String yaml = Files.readString(kubeconfig, StandardCharsets.UTF_8);
      return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(yaml)).build();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the node's kubeconfig " + kubeconfig, e);
    }
  }

  private static Map<String, String> readFacts(Path nodeEnv) {
    Map<String, String> facts = new LinkedHashMap<>();
    try {
      for (String line : Files.readAllLines(nodeEnv, StandardCharsets.UTF_8)) {
        int eq = line.indexOf('=');
        if (eq > 0) {
          facts.put(line.substring(0, eq), line.substring(eq + 1));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("up.sh left no " + nodeEnv + " describing the node", e);
    }
    return facts;
  }

  record Script(int exitCode, String output) {}

  private static Script run(List<String> command, Duration deadline) {
    List<String> full = new ArrayList<>(command);
    try {
      Path log = Files.createTempFile("varroa-node-", ".log");
      try {
        // stdout (the facts) and stderr (progress) apart: up.sh prints the kubeconfig last on stdout
        Path err = Files.createTempFile("varroa-node-", ".err");
        try {
          Process process = new ProcessBuilder(full).redirectOutput(log.toFile()).redirectError(err.toFile()).start();
          if (!process.waitFor(deadline.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return new Script(124, command + " did not end within " + deadline + ":\n" + Files.readString(err));
          }
          String out = Files.readString(log, StandardCharsets.UTF_8);
          String progress = Files.readString(err, StandardCharsets.UTF_8);
          return new Script(process.exitValue(), process.exitValue() == 0 ? out : progress + out);
        } finally {
          Files.deleteIfExists(err);
        }
      } finally {
        Files.deleteIfExists(log);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + command, e);
    }
  }
}
