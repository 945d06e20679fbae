package dev.varroa.testfixtures.kube.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.kube.csi.CsiStandIn;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@WithKubeApiServer
class JobStandInIT {
  private static final AtomicInteger NAMESPACES = new AtomicInteger();
  private static final Duration DEADLINE = Duration.ofSeconds(20);

  @TempDir Path root;
  private KubernetesClient client;
  private CsiStandIn csi;
  private JobStandIn jobs;
  private String ns;

  @BeforeEach
  void start(KubeApiServer server) {
    client = server.client();
    ns = "jobs-" + NAMESPACES.incrementAndGet();
    client.resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build()).create();
    csi = CsiStandIn.builder(client, root.resolve("csi")).namespace(ns)
        .storageClass("old", "old.csi.varroa.dev").storageClass("new", "new.csi.varroa.dev").start();
    jobs = JobStandIn.builder(client, csi).namespace(ns).scratch(root.resolve("scratch")).start();
  }

  @AfterEach
  void stop() {
    jobs.close();
    csi.close();
  }

  @Test
  void copyJobRunsWithTheClaimsFoldersAndCompletes() throws Exception {
    claim("home", "old");
    claim("home-new", "new");
    csi.awaitBound(ns, "home");
    Path source = csi.folder(ns, "home");
    Files.createDirectories(source.resolve("nodes/agent-1"));
    Files.writeString(source.resolve("nodes/agent-1/config.xml"), "<slave/>");
    Files.createLink(source.resolve("nodes/agent-1/linked.xml"), source.resolve("nodes/agent-1/config.xml"));

    client.resource(job("move-home", 0,
        "rsync -aH --numeric-ids /mnt/source/ /mnt/target/ && echo \"copied $(ls /mnt/target/nodes | wc -l) node\""
            + " > /dev/termination-log")).create();
    Job done = jobs.awaitFinished(ns, "move-home");

    assertThat(done.getStatus().getConditions()).extracting(JobCondition::getType).contains("Complete");
    assertThat(done.getStatus().getSucceeded()).isEqualTo(1);
    Path target = csi.folder(ns, "home-new");
    assertThat(target.resolve("nodes/agent-1/config.xml")).hasContent("<slave/>");
    assertThat(Files.isSameFile(target.resolve("nodes/agent-1/config.xml"), target.resolve("nodes/agent-1/linked.xml")))
        .isTrue();
    Pod pod = client.pods().inNamespace(ns).withLabel("job-name", "move-home").list().getItems().get(0);
    assertThat(pod.getMetadata().getLabels()).containsEntry(JobStandIn.JOB_NAME_LABEL, "move-home");
    assertThat(pod.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(o -> assertThat(o.getUid()).isEqualTo(done.getMetadata().getUid()))
        .satisfies(o -> assertThat(o.getController()).isTrue());
    ContainerStateTerminated terminated = pod.getStatus().getContainerStatuses().get(0).getState().getTerminated();
    assertThat(terminated.getExitCode()).isZero();
    assertThat(terminated.getMessage()).isEqualTo("copied 1 node\n");
  }

  @Test
  void failingCommandFailsTheJobWithItsTerminationMessage() {
    claim("home", "old");
    claim("home-new", "new");

    client.resource(job("verify-home", 0, "echo 'secrets/ differs: 2 files' > /dev/termination-log; exit 3")).create();
    Job failed = jobs.awaitFinished(ns, "verify-home");

    assertThat(failed.getStatus().getConditions())
        .anySatisfy(c -> {
          assertThat(c.getType()).isEqualTo("Failed");
          assertThat(c.getReason()).isEqualTo("BackoffLimitExceeded");
        });
    assertThat(jobs.runs(ns, "verify-home")).singleElement().satisfies(run -> {
      assertThat(run.exitCode()).isEqualTo(3);
      assertThat(run.terminationMessage()).isEqualTo("secrets/ differs: 2 files\n");
    });
  }

  @Test
  void killedPodEndsWithExitCode137AndFailsTheJob() {
    claim("home", "old");
    claim("home-new", "new");
    client.resource(job("move-home", 0, "touch /mnt/target/started; sleep 30; touch /mnt/target/finished")).create();

    jobs.awaitRunning(ns, "move-home");
    await().atMost(DEADLINE).until(() -> Files.exists(csi.folder(ns, "home-new").resolve("started")));
    jobs.kill(ns, "move-home");
    Job failed = jobs.awaitFinished(ns, "move-home");

    assertThat(failed.getStatus().getFailed()).isEqualTo(1);
    assertThat(jobs.runs(ns, "move-home")).singleElement().extracting(JobRun::exitCode).isEqualTo(137);
    assertThat(csi.folder(ns, "home-new").resolve("finished")).doesNotExist();
  }

  @Test
  void podKilledAtStartIsReplacedWithinTheBackoffLimit() {
    claim("home", "old");
    claim("home-new", "new");
    jobs.killNext();

    client.resource(job("move-home", 1, "touch /mnt/target/done")).create();
    Job done = jobs.awaitFinished(ns, "move-home");

    assertThat(done.getStatus().getFailed()).isEqualTo(1);
    assertThat(done.getStatus().getSucceeded()).isEqualTo(1);
    assertThat(jobs.runs(ns, "move-home")).extracting(JobRun::exitCode).containsExactly(137, 0);
    assertThat(client.pods().inNamespace(ns).withLabel("job-name", "move-home").list().getItems()).hasSize(2);
  }

  @Test
  void podWaitsPendingUntilItsClaimsAreBound() {
    csi.refuseClass("new", "the new pool is full");
    claim("home", "old");
    claim("home-new", "new");
    client.resource(job("move-home", 0, "touch /mnt/target/done")).create();

    await().atMost(DEADLINE).untilAsserted(() -> assertThat(
        client.pods().inNamespace(ns).withLabel("job-name", "move-home").list().getItems()).singleElement()
        .satisfies(p -> assertThat(p.getStatus().getConditions()).anySatisfy(c -> {
          assertThat(c.getType()).isEqualTo("PodScheduled");
          assertThat(c.getReason()).isEqualTo("Unschedulable");
        })));
    csi.acceptClass("new");

    assertThat(jobs.awaitFinished(ns, "move-home").getStatus().getSucceeded()).isEqualTo(1);
  }

  @Test
  void activeDeadlineKillsThePodAndFailsTheJob() {
    claim("home", "old");
    claim("home-new", "new");
    Job slow = job("move-home", 3, "sleep 30");
    slow.getSpec().setActiveDeadlineSeconds(1L);

    client.resource(slow).create();
    Job failed = jobs.awaitFinished(ns, "move-home");

    assertThat(failed.getStatus().getConditions()).anySatisfy(c -> assertThat(c.getReason()).isEqualTo("DeadlineExceeded"));
    assertThat(jobs.runs(ns, "move-home")).hasSize(1);
  }

  @Test
  void deletingTheJobStopsItsCommandAndDeletesItsPod() {
    claim("home", "old");
    claim("home-new", "new");
    Job job = client.resource(job("move-home", 0, "sleep 30; touch /mnt/target/finished")).create();
    jobs.awaitRunning(ns, "move-home");

    client.resource(job).delete();

    await().atMost(DEADLINE).untilAsserted(() -> assertThat(
        client.pods().inNamespace(ns).withLabel("job-name", "move-home").list().getItems()).isEmpty());
    assertThat(csi.folder(ns, "home-new").resolve("finished")).doesNotExist();
  }

  private void claim(String name, String storageClass) {
    client.resource(new PersistentVolumeClaimBuilder()
        .withNewMetadata().withNamespace(ns).withName(name).endMetadata()
        .withNewSpec().withStorageClassName(storageClass).withAccessModes("ReadWriteOnce")
        .withNewResources().addToRequests("storage", new Quantity("1Gi")).endResources().endSpec()
        .build()).create();
  }

  /** A copy Job in the shape the storage move uses: both claims mounted, paths in its args. */
  private Job job(String name, int backoffLimit, String script) {
    return new JobBuilder()
        .withNewMetadata().withNamespace(ns).withName(name).endMetadata()
        .withNewSpec()
        .withBackoffLimit(backoffLimit)
        .withNewTemplate()
        .withNewSpec()
        .withRestartPolicy("Never")
        .addNewContainer().withName("copy").withImage("varroa/rsync").withCommand("/bin/sh", "-c").withArgs(script)
        .addNewVolumeMount().withName("source").withMountPath("/mnt/source").endVolumeMount()
        .addNewVolumeMount().withName("target").withMountPath("/mnt/target").endVolumeMount()
        .endContainer()
        .addNewVolume().withName("source").withNewPersistentVolumeClaim().withClaimName("home").endPersistentVolumeClaim()
        .endVolume()
        .addNewVolume().withName("target").withNewPersistentVolumeClaim().withClaimName("home-new")
        .endPersistentVolumeClaim().endVolume()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }
}
