package dev.varroa.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.builds.v1.ClaimDecision;
import dev.varroa.protocol.builds.v1.ClaimRequest;
import dev.varroa.protocol.bus.v1.LedgerClaim;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.postgres.PostgresServer;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import io.nats.client.Connection;
import io.nats.client.Message;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The ledger behind two recorder replicas, asked over NATS as the gateway asks it. */
class LedgerIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

  /** The gateway's budget for the ledger's answer (VARROA_CLAIM_LEDGER_WAIT). */
  private static final Duration GATEWAY_WAIT = Duration.ofSeconds(4);

  private static Recorder replicaA;
  private static Recorder replicaB;
  private static Connection nats;
  private static RecordedRows rows;

  @BeforeAll
  static void startTwoRecorders() throws Exception {
    PostgresServer postgres = POSTGRES.server();
    RecorderSettings settings = RecorderSettings.of(postgres.jdbcUrl(), postgres.user(), postgres.password(),
        NATS.server().url()).withHealthPort(0);
    replicaA = Recorder.start(settings);
    replicaB = Recorder.start(settings);
    nats = NATS.server().connect();
    rows = RecordedRows.of(postgres, postgres.jdbcUrl());
  }

  @AfterAll
  static void stop() throws Exception {
    if (nats != null) {
      nats.close();
    }
    if (replicaA != null) {
      replicaA.close();
    }
    if (replicaB != null) {
      replicaB.close();
    }
  }

  private static ClaimDecision claim(ControllerIdentity controller, String cluster, String runId, String job)
      throws Exception {
    LedgerClaim claim = LedgerClaim.newBuilder().setController(controller.toRef()).setCluster(cluster)
        .setClaim(ClaimRequest.newBuilder().setRunId(runId).setJob(job).setQueueId(7)).build();
    Message reply = nats.request(BusNames.LEDGER_CLAIM_SUBJECT, claim.toByteArray(), GATEWAY_WAIT);
    assertThat(reply).as("an answer within the gateway's 4 s").isNotNull();
    return ClaimDecision.parseFrom(reply.getData());
  }

  private static ControllerIdentity controller(String name) {
    return controller("team-a", name);
  }

  private static ControllerIdentity controller(String namespace, String name) {
    return new ControllerIdentity(namespace, name, UUID.randomUUID().toString());
  }

  @Test
  void grantsEachNumberOnceUnderConcurrentClaimsAndCountsEachControllerApart() throws Exception {
    String job = "team/app/" + UUID.randomUUID();
    ControllerIdentity eu = controller("ci-eu");
    ControllerIdentity us = controller("ci-us");
    int perController = 40;
    ExecutorService callers = Executors.newFixedThreadPool(16);
    List<Long> euNumbers = new ArrayList<>();
    List<Long> usNumbers = new ArrayList<>();
    try {
      List<Callable<ClaimDecision>> claims = new ArrayList<>();
      for (int i = 0; i < perController; i++) {
        String run = "run-" + i;
        claims.add(() -> claim(eu, "eu-1", run, job));
        claims.add(() -> claim(us, "us-1", run, job));
      }
      List<Future<ClaimDecision>> answers = callers.invokeAll(claims);
      for (int i = 0; i < answers.size(); i++) {
        ClaimDecision decision = answers.get(i).get();
        assertThat(decision.getDecision()).isEqualTo("granted");
        assertThat(decision.getCode()).isEqualTo("OK");
        (i % 2 == 0 ? euNumbers : usNumbers).add(decision.getBuildNumber());
      }
    } finally {
      callers.shutdownNow();
    }
    List<Long> oneToForty = LongStream.rangeClosed(1, perController).boxed().toList();
    assertThat(euNumbers).containsExactlyInAnyOrderElementsOf(oneToForty);
    assertThat(usNumbers).as("the same job on another controller counts on its own").containsExactlyInAnyOrderElementsOf(
        oneToForty);
    // Both replicas answered: the queue group spread the claims.
    assertThat(rows.count("SELECT count(DISTINCT cluster) FROM claims WHERE job = ?", job)).isEqualTo(2);
  }

  @Test
  void theSameRunAskingAgainGetsTheSameNumber() throws Exception {
    String job = "team/app/" + UUID.randomUUID();
    ControllerIdentity controller = controller("ci");
    ClaimDecision first = claim(controller, "eu-1", "run-1", job);
    ClaimDecision other = claim(controller, "eu-1", "run-2", job);
    ClaimDecision again = claim(controller, "eu-1", "run-1", job);
    assertThat(first.getBuildNumber()).isEqualTo(1);
    assertThat(other.getBuildNumber()).isEqualTo(2);
    assertThat(again).isEqualTo(first);
    // The same run id from another controller is another run, counted on that controller.
    assertThat(claim(controller("ci-2"), "eu-1", "run-1", job).getBuildNumber()).isEqualTo(1);
  }

  @Test
  void twoControllersInDifferentNamespacesWithTheSameJobGetIndependentNumbersAndHolds() throws Exception {
    String job = "team/app/" + UUID.randomUUID();
    ControllerIdentity tenantA = controller("tenant-a", "ci");
    ControllerIdentity tenantB = controller("tenant-b", "ci");
    assertThat(claim(tenantA, "eu-1", "run-1", job).getBuildNumber()).isEqualTo(1);
    assertThat(claim(tenantA, "eu-1", "run-2", job).getBuildNumber()).isEqualTo(2);
    assertThat(claim(tenantB, "eu-1", "run-1", job).getBuildNumber())
        .as("tenant B's first build of its own job of that name").isEqualTo(1);

    rows.execute("INSERT INTO job_holds (cluster, namespace, controller_name, job, reason) VALUES (?, ?, ?, ?, ?)",
        "eu-1", "tenant-a", "ci", job, "tenant A release freeze");
    ClaimDecision heldA = claim(tenantA, "eu-1", "run-3", job);
    assertThat(heldA.getDecision()).isEqualTo("refused");
    assertThat(heldA.getReason()).isEqualTo("tenant A release freeze");
    ClaimDecision freeB = claim(tenantB, "eu-1", "run-2", job);
    assertThat(freeB.getDecision()).as("tenant A's hold does not reach tenant B").isEqualTo("granted");
    assertThat(freeB.getBuildNumber()).isEqualTo(2);
    assertThat(rows.count("SELECT count(*) FROM claims WHERE job = ? AND build_number = 2", job)).isEqualTo(2);

    rows.execute("DELETE FROM job_holds WHERE job = ?", job);
    assertThat(claim(tenantA, "eu-1", "run-3", job).getBuildNumber()).isEqualTo(3);
  }

  @Test
  void anInstallationWideHoldAndStartNumberReachEveryController() throws Exception {
    String job = "team/app/" + UUID.randomUUID();
    ControllerIdentity tenantA = controller("tenant-a", "ci");
    ControllerIdentity tenantB = controller("tenant-b", "ci");
    // Written as before the keys named the controller: the columns default to the installation-wide row.
    rows.execute("INSERT INTO build_numbers (job, next_number) VALUES (?, 42)", job);
    assertThat(claim(tenantA, "eu-1", "run-1", job).getBuildNumber()).isEqualTo(42);
    assertThat(claim(tenantB, "eu-1", "run-1", job).getBuildNumber()).isEqualTo(42);
    assertThat(claim(tenantA, "eu-1", "run-2", job).getBuildNumber()).isEqualTo(43);

    rows.execute("INSERT INTO job_holds (job, reason) VALUES (?, 'freeze everywhere')", job);
    assertThat(claim(tenantA, "eu-1", "run-3", job).getReason()).isEqualTo("freeze everywhere");
    assertThat(claim(tenantB, "eu-1", "run-2", job).getReason()).isEqualTo("freeze everywhere");
  }

  @Test
  void aHeldJobIsRefusedWithTheHoldsReason() throws Exception {
    String job = "team/app/" + UUID.randomUUID();
    ControllerIdentity controller = controller("ci");
    rows.execute("INSERT INTO job_holds (cluster, namespace, controller_name, job, reason, held_by) "
        + "VALUES (?, ?, ?, ?, ?, ?)", "eu-1", "team-a", "ci", job, "release freeze until Monday", "admin");
    ClaimDecision refused = claim(controller, "eu-1", "run-1", job);
    assertThat(refused.getDecision()).isEqualTo("refused");
    assertThat(refused.getCode()).isEqualTo("OK");
    assertThat(refused.getReason()).isEqualTo("release freeze until Monday");
    assertThat(refused.getBuildNumber()).isZero();

    rows.execute("DELETE FROM job_holds WHERE job = ?", job);
    ClaimDecision granted = claim(controller, "eu-1", "run-1", job);
    assertThat(granted.getDecision()).isEqualTo("granted");
    assertThat(granted.getBuildNumber()).isEqualTo(1);
  }

  @Test
  void aClaimWithoutJobOrRunIdIsAnInvalidArgumentNamingTheField() throws Exception {
    ControllerIdentity controller = controller("ci");
    ClaimDecision noJob = claim(controller, "eu-1", "run-1", "");
    assertThat(noJob.getDecision()).isEmpty();
    assertThat(noJob.getCode()).isEqualTo("INVALID_ARGUMENT");
    assertThat(noJob.getReason()).startsWith("job is empty");
    ClaimDecision noRun = claim(controller, "eu-1", "", "team/app/main");
    assertThat(noRun.getCode()).isEqualTo("INVALID_ARGUMENT");
    assertThat(noRun.getReason()).startsWith("run_id is empty");
  }

  @Test
  void aDatabaseOutageAnswersRetryAfterTwoSeconds() throws Exception {
    String job = "team/app/" + UUID.randomUUID();
    ControllerIdentity controller = controller("ci");
    POSTGRES.server().crash();
    try {
      ClaimDecision retry = claim(controller, "eu-1", "run-1", job);
      assertThat(retry.getDecision()).isEqualTo("retry");
      assertThat(retry.getCode()).isEqualTo("OK");
      assertThat(retry.getRetryAfterMillis()).isEqualTo(2000);
    } finally {
      POSTGRES.server().start();
    }
    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20))
        .until(() -> claim(controller, "eu-1", "run-1", job).getDecision().equals("granted"));
    assertThat(claim(controller, "eu-1", "run-1", job).getBuildNumber()).isEqualTo(1);
  }
}
