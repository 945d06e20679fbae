package dev.varroa.dashboard.e2e;

import dev.varroa.api.v1alpha1.BroodOperation;
import dev.varroa.api.v1alpha1.BroodOperationStatus;
import dev.varroa.api.v1alpha1.BroodOperationStatus.StepResult;
import dev.varroa.api.v1alpha1.BroodOperationStatus.Target;
import dev.varroa.api.v1alpha1.BroodOperationStatus.TargetPhase;
import dev.varroa.api.v1alpha1.BroodSchedule;
import dev.varroa.api.v1alpha1.BroodScheduleStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The brood operations and schedules the dashboard's browser tests look at, in namespace ci, with the status the engine
 * and the schedule reconciler would write (neither runs in these tests: the test writes the status itself).
 * weekly-restart runs across eu-1 and a member that went silent, its team-a target waiting at a pause step;
 * plugin-wave failed on team-a; preview is a dry run.
 */
final class BroodScene {

  static final String NAMESPACE = "ci";
  static final String PAUSE_NOTE = "check the backup in the bucket before the restarts";
  static final String REFUSED = "Jenkins refused the configuration: unknown property 'numExecutor' in jenkins";

  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private final KubernetesClient client;
  private final String core;
  private final String silent;
  private final Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);

  BroodScene(KubernetesClient client, String core, String silent) {
    this.client = client;
    this.core = core;
    this.silent = silent;
  }

  /** Creates the three operations and two schedules and writes their status. */
  void create() {
    operation("weekly-restart", "weekly-safe-restart", """
        targets: {clusters: ["*"], namespaces: [ci]}
        steps:
          - type: backup
          - type: pause
            note: "%s"
          - type: safeRestart
        strategy: {maxConcurrent: "50%%", failurePolicy: StopOnFirstFailure}
        """.formatted(PAUSE_NOTE));
    weeklyPaused();

    operation("plugin-wave", null, """
        targets: {namespaces: [ci], phases: [Connected]}
        steps: [{type: reapplyConfiguration}]
        strategy: {maxConcurrent: 2, failurePolicy: Continue}
        """);
    status("plugin-wave", status -> {
      status.phase = BroodOperationStatus.Phase.Failed;
      status.message = "1 of 2 targets failed";
      status.startedAt = at(-50);
      status.completedAt = at(-45);
      status.steps = List.of("reapplyConfiguration");
      status.counts = counts(2, 0, 0, 0, 1, 1, 0);
      status.targets = List.of(
          target(core, "sandbox", TargetPhase.Succeeded, 0, null,
              step("reapplyConfiguration", "Succeeded", -50, -48, "applied sha256:4f1c…")),
          target(core, "team-a", TargetPhase.Failed, 0, REFUSED,
              step("reapplyConfiguration", "Failed", -50, -45, REFUSED)));
    });

    operation("preview", null, """
        targets: {namespaces: [ci]}
        steps: [{type: backup}]
        dryRun: true
        """);
    status("preview", status -> {
      status.phase = BroodOperationStatus.Phase.Succeeded;
      status.dryRun = true;
      status.message = "dry run: 2 targets, nothing was touched";
      status.startedAt = at(-5);
      status.completedAt = at(-5);
      status.steps = List.of("backup");
      status.counts = counts(2, 2, 0, 0, 0, 0, 0);
      status.targets = List.of(target(core, "sandbox", TargetPhase.Pending, 0, null),
          target(core, "team-a", TargetPhase.Pending, 0, null));
    });

    schedule("weekly-safe-restart", """
        schedule: "0 3 * * 6"
        timeZone: Europe/Berlin
        template:
          spec:
            targets: {clusters: ["*"], namespaces: [ci]}
            steps: [{type: backup}, {type: safeRestart}]
        """, status -> {
      status.lastRunTime = "2026-11-28T02:00:00Z";
      status.nextRunTime = "2026-12-05T02:00:00Z";
      status.lastOperation = "weekly-restart";
      status.lastResult = "Running";
      status.active = List.of("weekly-restart");
    });
    schedule("nightly-backup", """
        schedule: "0 2 * * *"
        suspend: true
        template:
          spec:
            targets: {namespaces: [ci]}
            steps: [{type: backup}]
        """, status -> {
      status.lastRunTime = "2026-12-03T02:00:00Z";
      status.lastResult = "Skipped";
      status.message = "the run of 2026-12-03T02:00:00Z was skipped: the last one was still running"
          + " (concurrencyPolicy Forbid)";
    });
  }

  /** weekly-restart as a person finds it: sandbox done, team-a waiting at the pause step, the silent member Unknown. */
  private void weeklyPaused() {
    status("weekly-restart", status -> {
      weeklyCommon(status);
      status.counts = counts(3, 0, 0, 1, 1, 0, 1);
      status.targets = List.of(sandboxRestarted(),
          target(core, "team-a", TargetPhase.Paused, 1, "waiting for a person to resume",
              step("backup", "Succeeded", -20, -19, "snapshot team-a-20261204"),
              step("pause", "Paused", -19, null, null)),
          farAway());
    });
  }

  /** A person resumed: team-a restarts, waiting for its running build. */
  void resume() {
    status("weekly-restart", status -> {
      weeklyCommon(status);
      status.counts = counts(3, 0, 1, 0, 1, 0, 1);
      status.targets = List.of(sandboxRestarted(),
          target(core, "team-a", TargetPhase.Running, 2, "waiting for 1 running build",
              step("backup", "Succeeded", -20, -19, "snapshot team-a-20261204"),
              step("pause", "Succeeded", -19, -1, "resumed"),
              step("safeRestart", "Running", -1, null, null)),
          farAway());
    });
  }

  private void weeklyCommon(BroodOperationStatus status) {
    status.phase = BroodOperationStatus.Phase.Running;
    status.message = "1 of 3 targets succeeded; cluster " + silent + " has not reported for 2 min";
    status.startedAt = at(-30);
    status.steps = List.of("backup", "pause", "safeRestart");
  }

  private Target sandboxRestarted() {
    return target(core, "sandbox", TargetPhase.Succeeded, 2, null,
        step("backup", "Succeeded", -30, -29, "snapshot sandbox-20261204"),
        step("pause", "Succeeded", -29, -25, "resumed"),
        step("safeRestart", "Succeeded", -25, -22, "Jenkins answered again after the restart"));
  }

  private Target farAway() {
    Target target = target(silent, "far-away", TargetPhase.Unknown, 0, "cluster " + silent
        + " has not reported for 2 min");
    target.reportedAt = at(-2);
    return target;
  }

  private void operation(String name, String schedule, String spec) {
    String yaml = "apiVersion: varroa.dev/v1alpha1\nkind: BroodOperation\nmetadata:\n  name: " + name
        + "\n  namespace: " + NAMESPACE + "\n"
        + (schedule == null ? "" : "  labels: {varroa.dev/brood-schedule: " + schedule + "}\n")
        + "spec:\n" + spec.indent(2);
    client.resource(YAML.unmarshal(yaml, BroodOperation.class)).create();
  }

  /** Replaces the operation's status with what {@code change} makes of an empty one. */
  private void status(String name, Consumer<BroodOperationStatus> change) {
    BroodOperation current = client.resources(BroodOperation.class).inNamespace(NAMESPACE).withName(name).get();
    BroodOperationStatus status = new BroodOperationStatus();
    change.accept(status);
    current.setStatus(status);
    client.resource(current).updateStatus();
  }

  private void schedule(String name, String spec, Consumer<BroodScheduleStatus> change) {
    String yaml = "apiVersion: varroa.dev/v1alpha1\nkind: BroodSchedule\nmetadata: {name: " + name + ", namespace: "
        + NAMESPACE + "}\nspec:\n" + spec.indent(2);
    BroodSchedule created = client.resource(YAML.unmarshal(yaml, BroodSchedule.class)).create();
    BroodScheduleStatus status = new BroodScheduleStatus();
    change.accept(status);
    created.setStatus(status);
    client.resource(created).updateStatus();
  }

  private String at(int minutes) {
    return now.plus(minutes, ChronoUnit.MINUTES).toString();
  }

  private static BroodOperationStatus.Counts counts(int total, int pending, int running, int paused, int succeeded,
      int failed, int unknown) {
    BroodOperationStatus.Counts counts = new BroodOperationStatus.Counts();
    counts.total = total;
    counts.pending = pending;
    counts.running = running;
    counts.paused = paused;
    counts.succeeded = succeeded;
    counts.failed = failed;
    counts.unknown = unknown;
    counts.cancelled = 0;
    return counts;
  }

  private Target target(String cluster, String name, TargetPhase phase, int step, String message,
      StepResult... steps) {
    Target target = new Target();
    target.cluster = cluster;
    target.namespace = NAMESPACE;
    target.name = name;
    target.phase = phase;
    target.step = step;
    target.message = message;
    target.steps = new ArrayList<>(List.of(steps));
    if (steps.length > 0) {
      target.startedAt = steps[0].startedAt;
      target.reportedAt = at(0);
      if (phase == TargetPhase.Succeeded || phase == TargetPhase.Failed) {
        target.completedAt = steps[steps.length - 1].completedAt;
      }
    }
    return target;
  }

  private StepResult step(String type, String phase, int startedMinutes, Integer completedMinutes, String message) {
    StepResult result = new StepResult();
    result.type = type;
    result.phase = phase;
    result.startedAt = at(startedMinutes);
    result.completedAt = completedMinutes == null ? null : at(completedMinutes);
    result.message = message;
    return result;
  }
}
