package dev.varroa.operator.brood.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.BroodOperation;
import dev.varroa.api.v1alpha1.BroodOperationStatus;
import dev.varroa.api.v1alpha1.BroodSchedule;
import dev.varroa.api.v1alpha1.BroodScheduleStatus;
import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.operator.install.ChartRbac;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.ServiceAccountClient;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.Operator;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * BroodSchedules on a real API server: the reconciler acts as the chart's ServiceAccount under the chart's RBAC, its
 * clock is set by the test (a night across a daylight-saving change passes in seconds), and the test plays the
 * BroodOperation engine by setting status.phase itself. Each test has its own namespace and its own operator.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BroodScheduleReconcilerIT {
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  /** How long the reconciler waits at most before reading the moved clock again. */
  private static final Duration LOOK_AGAIN = Duration.ofMillis(200);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private KubernetesClient admin;
  private ServiceAccountClient account;
  private SettableClock clock;
  private BroodScheduleReconciler reconciler;
  private Operator operator;

  @BeforeAll
  void installAccount(KubeApiServer kube) {
    admin = kube.client();
    account = ChartRbac.installOperatorAccount(kube, ChartRbac.render(), "operator-brood-schedules");
  }

  @AfterEach
  void stopOperator() {
    if (operator != null) {
      operator.stop();
      operator = null;
    }
  }

  @AfterAll
  void refusedNothing() {
    assertThat(account.forbidden()).as("requests the chart's RBAC refused to " + account.user()).isEmpty();
  }

  @Test
  void aNightlyRunSkippedBySpringForwardFiresAtTheEndOfTheGap() {
    String ns = namespace("dst-spring");
    startOperator(ns, Instant.parse("2026-03-28T12:00:00Z"));
    apply(nightly(ns, "nightly", "Europe/Berlin"));

    BroodSchedule scheduled = awaitSchedule(ns, "nightly", s -> "2026-03-29T01:00:00Z".equals(s.nextRunTime));
    assertThat(scheduled.getStatus().condition(Condition.READY)).get().satisfies(c -> {
      assertThat(c.status).isEqualTo(Condition.Status.True);
      assertThat(c.message).as("02:30 does not exist that night; 03:00 CEST is the first instant after it")
          .contains("2026-03-29T03:00+02:00 (Europe/Berlin)");
    });

    settle(Instant.parse("2026-03-29T00:59:30Z"));
    assertThat(operations(ns)).isEmpty();

    settle(Instant.parse("2026-03-29T01:00:05Z"));
    String first = run("nightly", "2026-03-29T01:00:00Z");
    BroodOperation created = awaitOperation(ns, first);
    assertThat(created.getMetadata().getLabels()).containsEntry("team", "platform")
        .containsEntry(ScheduledOperation.SCHEDULE_LABEL, "nightly");
    assertThat(created.getMetadata().getAnnotations()).containsEntry("example.com/ticket", "OPS-7")
        .containsEntry(ScheduledOperation.SCHEDULED_TIME_ANNOTATION, "2026-03-29T01:00:00Z");
    assertThat(created.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
      assertThat(owner.getKind()).isEqualTo("BroodSchedule");
      assertThat(owner.getUid()).isEqualTo(scheduled.getMetadata().getUid());
      assertThat(owner.getController()).isTrue();
    });
    assertThat(YAML.asJson(created.getSpec())).isEqualTo(YAML.asJson(scheduled.getSpec().template.spec));
    BroodSchedule started = awaitSchedule(ns, "nightly", s -> first.equals(s.lastOperation)
        && "2026-03-30T00:30:00Z".equals(s.nextRunTime));
    assertThat(started.getStatus().lastRunTime).isEqualTo("2026-03-29T01:00:00Z");
    assertThat(started.getStatus().lastResult).isEqualTo("Pending");
    assertThat(started.getStatus().active).containsExactly(first);

    engineSets(ns, first, BroodOperationStatus.Phase.Succeeded);
    awaitSchedule(ns, "nightly", s -> "Succeeded".equals(s.lastResult) && s.active.isEmpty());

    // the next night is summer time: 02:30 CEST is 00:30 UTC
    settle(Instant.parse("2026-03-30T00:30:05Z"));
    awaitOperation(ns, run("nightly", "2026-03-30T00:30:00Z"));
    assertThat(operations(ns)).containsExactly(first, run("nightly", "2026-03-30T00:30:00Z"));
  }

  @Test
  void aNightlyRunInTheHourAutumnRepeatsFiresOnce() {
    String ns = namespace("dst-autumn");
    startOperator(ns, Instant.parse("2026-10-24T12:00:00Z"));
    apply(nightly(ns, "nightly", "Europe/Berlin"));
    awaitSchedule(ns, "nightly", s -> "2026-10-25T00:30:00Z".equals(s.nextRunTime));

    // 02:30 CEST, the first of the two
    settle(Instant.parse("2026-10-25T00:30:05Z"));
    String first = run("nightly", "2026-10-25T00:30:00Z");
    awaitOperation(ns, first);
    awaitSchedule(ns, "nightly", s -> "2026-10-26T01:30:00Z".equals(s.nextRunTime));

    // 02:30 CET, an hour later, is the same wall time again: no second run
    settle(Instant.parse("2026-10-25T01:30:05Z"));
    engineSets(ns, first, BroodOperationStatus.Phase.Succeeded);
    awaitSchedule(ns, "nightly", s -> "Succeeded".equals(s.lastResult));
    assertThat(operations(ns)).containsExactly(first);

    settle(Instant.parse("2026-10-26T01:30:05Z"));
    awaitOperation(ns, run("nightly", "2026-10-26T01:30:00Z"));
    assertThat(operations(ns)).containsExactly(first, run("nightly", "2026-10-26T01:30:00Z"));
  }

  @Test
  void forbidSkipsTheRunWhileTheLastStillRunsAndNeverStartsItLate() {
    String ns = namespace("forbid");
    startOperator(ns, Instant.parse("2026-06-01T09:59:00Z"));
    apply(hourly(ns, "hourly", "concurrencyPolicy: Forbid"));
    String ten = startedAt(ns, "hourly", "2026-06-01T10:00:00Z");
    engineSets(ns, ten, BroodOperationStatus.Phase.Running);

    settle(Instant.parse("2026-06-01T11:00:05Z"));
    BroodSchedule skipped = awaitSchedule(ns, "hourly", s -> "Skipped".equals(s.lastResult));
    assertThat(skipped.getStatus().message).contains("BroodOperation " + ten + " is still Running")
        .contains("concurrencyPolicy is Forbid");
    assertThat(skipped.getStatus().nextRunTime).isEqualTo("2026-06-01T12:00:00Z");
    assertThat(skipped.getStatus().active).containsExactly(ten);
    assertThat(operations(ns)).containsExactly(ten);

    // the running one ends; the skipped run stays skipped
    engineSets(ns, ten, BroodOperationStatus.Phase.Succeeded);
    settle(Instant.parse("2026-06-01T11:30:00Z"));
    awaitSchedule(ns, "hourly", s -> s.active.isEmpty());
    assertThat(operations(ns)).containsExactly(ten);

    String noon = startedAt(ns, "hourly", "2026-06-01T12:00:00Z");
    assertThat(operations(ns)).containsExactly(ten, noon);
  }

  @Test
  void replaceCancelsTheRunningOneAndStartsTheNewOne() {
    String ns = namespace("replace");
    startOperator(ns, Instant.parse("2026-06-01T09:59:00Z"));
    apply(hourly(ns, "hourly", "concurrencyPolicy: Replace"));
    String ten = startedAt(ns, "hourly", "2026-06-01T10:00:00Z");
    engineSets(ns, ten, BroodOperationStatus.Phase.Running);

    String eleven = startedAt(ns, "hourly", "2026-06-01T11:00:00Z");
    assertThat(operation(ns, ten).getSpec().cancel).as("the replaced run is cancelled").isTrue();
    assertThat(operation(ns, eleven).getSpec().cancel).isNull();
    // until the engine has cancelled it, both are under way
    awaitSchedule(ns, "hourly", s -> s.active.equals(List.of(ten, eleven)));
    engineSets(ns, ten, BroodOperationStatus.Phase.Cancelled);
    awaitSchedule(ns, "hourly", s -> s.active.equals(List.of(eleven)));
  }

  @Test
  void allowStartsTheNewRunBesideTheRunningOne() {
    String ns = namespace("allow");
    startOperator(ns, Instant.parse("2026-06-01T09:59:00Z"));
    apply(hourly(ns, "hourly", "concurrencyPolicy: Allow"));
    String ten = startedAt(ns, "hourly", "2026-06-01T10:00:00Z");
    engineSets(ns, ten, BroodOperationStatus.Phase.Running);

    String eleven = startedAt(ns, "hourly", "2026-06-01T11:00:00Z");
    assertThat(operation(ns, ten).getSpec().cancel).isNull();
    BroodSchedule both = awaitSchedule(ns, "hourly", s -> s.active.equals(List.of(ten, eleven)));
    assertThat(both.getStatus().lastOperation).isEqualTo(eleven);
  }

  @Test
  void aRunMissedByMoreThanTheStartingDeadlineIsSkippedOneWithinItStartsLate() {
    String ns = namespace("deadline");
    startOperator(ns, Instant.parse("2026-06-01T09:59:00Z"));
    apply(hourly(ns, "hourly", "startingDeadlineSeconds: 300"));
    awaitSchedule(ns, "hourly", s -> "2026-06-01T10:00:00Z".equals(s.nextRunTime));

    // the operator was away from 09:59 to 10:07
    settle(Instant.parse("2026-06-01T10:07:00Z"));
    BroodSchedule skipped = awaitSchedule(ns, "hourly", s -> "Skipped".equals(s.lastResult));
    assertThat(skipped.getStatus().message).contains("missed by 420 s")
        .contains("spec.startingDeadlineSeconds (300)");
    assertThat(skipped.getStatus().nextRunTime).isEqualTo("2026-06-01T11:00:00Z");
    assertThat(operations(ns)).isEmpty();

    // four minutes late is within the deadline
    settle(Instant.parse("2026-06-01T11:04:00Z"));
    awaitOperation(ns, run("hourly", "2026-06-01T11:00:00Z"));
    assertThat(awaitSchedule(ns, "hourly", s -> "Pending".equals(s.lastResult)).getStatus().message).isNull();
  }

  @Test
  void withoutADeadlineRunsMissedMeanwhileStartOnceForTheLatest() {
    String ns = namespace("missed");
    startOperator(ns, Instant.parse("2026-06-01T09:59:00Z"));
    apply(hourly(ns, "hourly", "concurrencyPolicy: Allow"));
    awaitSchedule(ns, "hourly", s -> "2026-06-01T10:00:00Z".equals(s.nextRunTime));

    // away from 09:59 to 13:20: 10:00, 11:00, 12:00 and 13:00 were missed
    settle(Instant.parse("2026-06-01T13:20:00Z"));
    awaitSchedule(ns, "hourly", s -> "2026-06-01T14:00:00Z".equals(s.nextRunTime));
    assertThat(operations(ns)).containsExactly(run("hourly", "2026-06-01T13:00:00Z"));
  }

  @Test
  void finishedRunsBeyondTheHistoryLimitsAreDeletedOldestFirst() {
    String ns = namespace("history");
    startOperator(ns, Instant.parse("2026-06-01T09:59:00Z"));
    apply(hourly(ns, "hourly", "successfulHistoryLimit: 2\n  failedHistoryLimit: 1"));
    List<BroodOperationStatus.Phase> results = List.of(BroodOperationStatus.Phase.Succeeded,
        BroodOperationStatus.Phase.Failed, BroodOperationStatus.Phase.Succeeded, BroodOperationStatus.Phase.Cancelled,
        BroodOperationStatus.Phase.Succeeded, BroodOperationStatus.Phase.Succeeded);
    for (int hour = 0; hour < results.size(); hour++) {
      String name = startedAt(ns, "hourly", "2026-06-01T1" + hour + ":00:00Z");
      engineSets(ns, name, results.get(hour));
      awaitSchedule(ns, "hourly", s -> s.active.isEmpty());
    }

    await().atMost(DEADLINE).untilAsserted(() -> assertThat(operations(ns)).containsExactly(
        run("hourly", "2026-06-01T13:00:00Z"), run("hourly", "2026-06-01T14:00:00Z"),
        run("hourly", "2026-06-01T15:00:00Z")));
  }

  @Test
  void aSuspendedScheduleStartsNothingAndResumesAtItsNextTime() {
    String ns = namespace("suspend");
    startOperator(ns, Instant.parse("2026-06-01T09:59:00Z"));
    apply(hourly(ns, "hourly", "suspend: true"));
    BroodSchedule suspended = awaitSchedule(ns, "hourly", s -> s.condition(Condition.READY)
        .map(c -> "Suspended".equals(c.reason)).orElse(false));
    assertThat(suspended.getStatus().nextRunTime).isNull();
    assertThat(suspended.getStatus().condition(Condition.STALLED)).get()
        .extracting(c -> c.status).isEqualTo(Condition.Status.False);

    // a suspended schedule waits for no time, so there is no pass to wait for: what is not started shows on resume
    clock.set(Instant.parse("2026-06-01T10:00:05Z"));
    clock.set(Instant.parse("2026-06-01T10:30:00Z"));
    admin.resources(BroodSchedule.class).inNamespace(ns).withName("hourly").edit(s -> {
      s.getSpec().suspend = false;
      return s;
    });
    awaitSchedule(ns, "hourly", s -> "2026-06-01T11:00:00Z".equals(s.nextRunTime));
    assertThat(operations(ns)).as("a run due while suspended is not started on resume").isEmpty();
    startedAt(ns, "hourly", "2026-06-01T11:00:00Z");
  }

  @Test
  void anInvalidScheduleOrTimeZoneStallsNamingTheFieldAndTheFix() {
    String ns = namespace("invalid");
    startOperator(ns, Instant.parse("2026-06-01T09:59:00Z"));
    apply(nightly(ns, "words", "UTC").replace("\"30 2 * * *\"", "\"every night\""));
    apply(nightly(ns, "typo", "Europe/Berln"));

    Condition schedule = stalled(ns, "words");
    assertThat(schedule.reason).isEqualTo("InvalidSchedule");
    assertThat(schedule.message).contains("BroodSchedule " + ns + "/words").contains("spec.schedule \"every night\"")
        .contains("fix: five cron fields");
    Condition zone = stalled(ns, "typo");
    assertThat(zone.reason).isEqualTo("InvalidTimeZone");
    assertThat(zone.message).contains("BroodSchedule " + ns + "/typo").contains("spec.timeZone \"Europe/Berln\"")
        .contains("fix: a name of the time-zone database such as Europe/Berlin");
    assertThat(schedule(ns, "typo").getStatus().condition(Condition.READY)).get()
        .extracting(c -> c.status).isEqualTo(Condition.Status.False);

    admin.resources(BroodSchedule.class).inNamespace(ns).withName("typo").edit(s -> {
      s.getSpec().timeZone = "Europe/Berlin";
      return s;
    });
    awaitSchedule(ns, "typo", s -> s.condition(Condition.READY).map(c -> c.status == Condition.Status.True)
        .orElse(false) && "2026-06-02T00:30:00Z".equals(s.nextRunTime));
  }

  @Test
  void anOperatorRestartDoesNotStartARunTwice() {
    String ns = namespace("restart");
    startOperator(ns, Instant.parse("2026-06-01T09:59:00Z"));
    apply(hourly(ns, "hourly", "concurrencyPolicy: Allow"));
    String ten = startedAt(ns, "hourly", "2026-06-01T10:00:00Z");
    awaitSchedule(ns, "hourly", s -> "2026-06-01T11:00:00Z".equals(s.nextRunTime));
    Instant at = clock.instant();
    stopOperator();

    // as if the operator had died between creating the run and writing status: the run is due again on paper
    admin.resources(BroodSchedule.class).inNamespace(ns).withName("hourly").editStatus(s -> {
      s.getStatus().nextRunTime = "2026-06-01T10:00:00Z";
      s.getStatus().lastOperation = null;
      s.getStatus().lastRunTime = null;
      return s;
    });
    startOperator(ns, at.plusSeconds(30));
    BroodSchedule resumed = awaitSchedule(ns, "hourly", s -> "2026-06-01T11:00:00Z".equals(s.nextRunTime));
    assertThat(resumed.getStatus().lastOperation).isEqualTo(ten);
    assertThat(resumed.getStatus().lastRunTime).isEqualTo("2026-06-01T10:00:00Z");
    assertThat(operations(ns)).containsExactly(ten);
  }

  private void startOperator(String namespace, Instant at) {
    clock = new SettableClock(at);
    reconciler = new BroodScheduleReconciler(clock, LOOK_AGAIN);
    operator = new Operator(o -> o.withKubernetesClient(account.client()).withCloseClientOnStop(false));
    operator.register(reconciler, c -> c.settingNamespace(namespace));
    operator.start();
  }

  /** Moves the clock and waits for a reconcile pass that began after the move. */
  private void settle(Instant at) {
    clock.set(at);
    long seen = reconciler.passes();
    await().atMost(DEADLINE).until(() -> reconciler.passes() >= seen + 2);
  }

  /** Moves the clock a few seconds past {@code time} and waits for the run it starts. */
  private String startedAt(String ns, String schedule, String time) {
    Instant at = Instant.parse(time);
    clock.set(at.plusSeconds(5));
    String name = run(schedule, time);
    awaitOperation(ns, name);
    awaitSchedule(ns, schedule, s -> name.equals(s.lastOperation));
    return name;
  }

  private static String run(String schedule, String time) {
    return ScheduledOperation.name(schedule, Instant.parse(time));
  }

  /** The engine's part: the operation reaches a phase. */
  private void engineSets(String ns, String name, BroodOperationStatus.Phase phase) {
    admin.resources(BroodOperation.class).inNamespace(ns).withName(name).editStatus(o -> {
      BroodOperationStatus status = o.getStatus() == null ? new BroodOperationStatus() : o.getStatus();
      status.phase = phase;
      o.setStatus(status);
      return o;
    });
  }

  private Condition stalled(String ns, String name) {
    return awaitSchedule(ns, name, s -> s.condition(Condition.STALLED)
        .map(c -> c.status == Condition.Status.True).orElse(false)).getStatus().condition(Condition.STALLED)
        .orElseThrow();
  }

  private BroodSchedule awaitSchedule(String ns, String name, Predicate<BroodScheduleStatus> until) {
    return await().atMost(DEADLINE).until(() -> schedule(ns, name),
        s -> s != null && s.getStatus() != null && until.test(s.getStatus()));
  }

  private BroodSchedule schedule(String ns, String name) {
    return admin.resources(BroodSchedule.class).inNamespace(ns).withName(name).get();
  }

  private BroodOperation awaitOperation(String ns, String name) {
    return await().atMost(DEADLINE).until(() -> operation(ns, name), o -> o != null);
  }

  private BroodOperation operation(String ns, String name) {
    return admin.resources(BroodOperation.class).inNamespace(ns).withName(name).get();
  }

  private List<String> operations(String ns) {
    return admin.resources(BroodOperation.class).inNamespace(ns).list().getItems().stream()
        .map(o -> o.getMetadata().getName()).sorted().toList();
  }

  private String namespace(String name) {
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
    return name;
  }

  /** Creates the schedule and waits for its first status: the clock moves only once the operator has seen it. */
  private void apply(String yaml) {
    BroodSchedule created = admin.resource(YAML.unmarshal(yaml, BroodSchedule.class)).create();
    awaitSchedule(created.getMetadata().getNamespace(), created.getMetadata().getName(),
        s -> s.observedGeneration != null);
  }

  private static String nightly(String ns, String name, String zone) {
    return """
        apiVersion: varroa.dev/v1alpha1
        kind: BroodSchedule
        metadata: {name: %s, namespace: %s}
        spec:
          schedule: "30 2 * * *"
          timeZone: %s
          template:
            metadata:
              labels: {team: platform}
              annotations: {example.com/ticket: OPS-7}
            spec:
              targets: {namespaces: [ci], phases: [Connected]}
              steps: [{type: backup}]
              strategy: {maxConcurrent: 2, failurePolicy: Continue}
        """.formatted(name, ns, zone);
  }

  private static String hourly(String ns, String name, String extra) {
    return """
        apiVersion: varroa.dev/v1alpha1
        kind: BroodSchedule
        metadata: {name: %s, namespace: %s}
        spec:
          schedule: "0 * * * *"
          %s
          template:
            spec:
              targets: {namespaces: [ci]}
              steps: [{type: waitForIdle}, {type: safeRestart}]
        """.formatted(name, ns, extra);
  }
}
