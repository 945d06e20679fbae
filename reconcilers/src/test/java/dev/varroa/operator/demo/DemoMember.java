package dev.varroa.operator.demo;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.operator.channel.PodPlayer;
import dev.varroa.operator.cluster.HiveMember;
import dev.varroa.operator.controller.ControllerManifests;
import dev.varroa.operator.install.InstallationSecrets;
import dev.varroa.testfixtures.demo.ExampleCluster;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.StarterProfile;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The member cluster both demos run next to the core: its own API server, the hive release's operator and gateway as
 * processes logged in to the core's NATS with the copied {@code varroa-nats-creds}, and one Controller whose pod is
 * played (a mite process beside the Jenkins contract fixture) because a second API server has no kubelet.
 */
public final class DemoMember implements AutoCloseable {
  public static final String NAME = "member-1";
  /** The member's one Controller. */
  public static final String NAMESPACE = "ci";
  public static final String CONTROLLER = "member-demo";
  private static final Duration TICK = Duration.ofSeconds(1);

  private final KubeApiServer kube;
  private final HiveMember member;
  private final Path work;
  private final Path kubeconfig;
  private final List<AutoCloseable> running = new ArrayList<>();
  private PodPlayer pod;
  private String lastListing = "";

  private DemoMember(KubeApiServer kube, HiveMember member, Path work, Path kubeconfig) {
    this.kube = kube;
    this.member = member;
    this.work = work;
    this.kubeconfig = kubeconfig;
  }

  /**
   * Installs and starts the member against the core's bus.
   *
   * @param credentials the core's varroa-nats-creds-&lt;member&gt;, copied as a user would
   */
  public static DemoMember start(Path root, Path work, String busUrl, Secret credentials, HiveMember.Blobs blobs,
      Duration deadline) throws Exception {
    KubeApiServer kube = KubeApiServer.start();
    HiveMember member = null;
    try {
      kube.installCrds(root.resolve("chart/crds"));
      KubernetesClient client = kube.client();
      member = HiveMember.install(client, kube.kubeconfigYaml(), NAME, busUrl, credentials, blobs,
          work.resolve("member"));
      member.startOperator();
      Instant caDeadline = Instant.now().plus(deadline);
      while (client.secrets().inNamespace(HiveMember.NAMESPACE).withName(InstallationSecrets.CA_SECRET).get() == null) {
        if (Instant.now().isAfter(caDeadline)) {
          throw new IllegalStateException("the member's operator made no varroa-ca in " + deadline.toMinutes()
              + " minutes; see " + member.operatorLogFiles());
        }
        Thread.sleep(TICK.toMillis());
      }
      member.startGateway();
      Path kubeconfig = kube.writeKubeconfig(work.resolve("member-kubeconfig.yaml"));
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
          .create();
      StarterProfile.install(client, null);
      ControllerManifests.create(client, NAMESPACE, CONTROLLER, "{}");
      ExampleCluster.say("member cluster " + NAME + ": its own API server (KUBECONFIG=" + kubeconfig + "), operator and"
          + " gateway from values-hive.yaml as processes (logs " + member.operatorLogFiles() + ", "
          + member.gatewayLog() + "), logged in to the core's NATS at " + busUrl + " as operator-" + NAME
          + " and gateway-" + NAME + "; Controller " + key());
      return new DemoMember(kube, member, work, kubeconfig);
    } catch (Exception e) {
      if (member != null) {
        member.close();
      }
      kube.close();
      throw e;
    }
  }

  public static String key() {
    return NAMESPACE + "/" + CONTROLLER;
  }

  public Path kubeconfig() {
    return kubeconfig;
  }

  public KubernetesClient client() {
    return kube.client();
  }

  /** One round: starts the Controller's played pod once its StatefulSet allows, keeps its volumes, prints changes. */
  public void step(String classpath) throws Exception {
    if (pod == null) {
      Controller controller = client().resources(Controller.class).inNamespace(NAMESPACE).withName(CONTROLLER).get();
      PodPlayer candidate = new PodPlayer(client(), controller, work.resolve("member").resolve("pods")
          .resolve(CONTROLLER));
      if (candidate.podCanStart()) {
        Path log = work.resolve("mite-" + NAME + "-" + CONTROLLER + ".log");
        candidate.start(PodPlayer.MiteRunner.process(classpath, log), p -> { });
        pod = candidate;
        running.add(0, pod);
        ExampleCluster.say("pod " + pod.pod().getMetadata().getName() + " started on member " + NAME
            + ": a mite process (log " + log + ") dialing the member's gateway");
      }
    } else {
      pod.refreshVolumes();
    }
    String listing = kube.kubectl("get", "controllers", "-A");
    // AGE ticks every second; print when anything else changed
    String withoutAge = listing.replaceAll("(?m)\\s+\\S+$", "");
    if (!withoutAge.equals(lastListing)) {
      System.out.println("member " + NAME + ":\n" + listing);
      lastListing = withoutAge;
    }
  }

  /** The member's Controller is Connected with its desired state applied. */
  public boolean connectedAndApplied() {
    ControllerStatus status = status();
    return status != null && status.phase == ControllerStatus.Phase.Connected && status.lastApplyResult != null
        && Boolean.TRUE.equals(status.lastApplyResult.succeeded);
  }

  public String summary() {
    ControllerStatus status = status();
    if (status == null) {
      return "no status yet";
    }
    return "phase=" + status.phase + " attention=" + status.attention + " lastApplyResult="
        + (status.lastApplyResult == null ? "none"
            : status.lastApplyResult.succeeded + " " + status.lastApplyResult.message);
  }

  private ControllerStatus status() {
    Controller controller = client().resources(Controller.class).inNamespace(NAMESPACE).withName(CONTROLLER).get();
    return controller == null ? null : controller.getStatus();
  }

  @Override
  public void close() throws Exception {
    for (AutoCloseable each : running) {
      each.close();
    }
    member.close();
    kube.close();
  }
}
