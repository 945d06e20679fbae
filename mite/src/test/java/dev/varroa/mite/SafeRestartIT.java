package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.CommandResult.Outcome;
import dev.varroa.protocol.mite.v1.ObservedState;
import dev.varroa.protocol.mite.v1.OneShot;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;
import dev.varroa.testfixtures.jenkins.RunningBuild;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SAFE_RESTART against the Jenkins contract fixture (Jenkins#doSafeRestart and its restart), with the plugin's real
 * JWT check on the bearer, and jenkins_up_since moving once Jenkins is back.
 */
class SafeRestartIT {

  private static final ControllerIdentity CONTROLLER = new ControllerIdentity("team-a", "ci", "uid-1");
  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir
  Path dir;

  private JenkinsFixture jenkins;
  private OperatorTokens tokens;
  private JenkinsBearer bearer;
  private JenkinsClient client;
  private CommandRunner runner;
  private final Map<String, CommandResult> results = new ConcurrentHashMap<>();

  @BeforeEach
  void setUp() throws Exception {
    jenkins = JenkinsFixture.start();
    // over a second in all: jenkins_up_since counts whole seconds
    jenkins.restartTimings(Duration.ofMillis(500), Duration.ofMillis(400), Duration.ofMillis(400));
    tokens = OperatorTokens.forController(CONTROLLER, dir);
    jenkins.bearerTokenAccepted(tokens.accepted());
    bearer = new JenkinsBearer(Clock.systemUTC());
    client = new JenkinsClient(jenkins.url(), bearer, Clock.systemUTC());
    JenkinsActions actions = new JenkinsActions(client, Clock.systemUTC());
    runner = new CommandRunner(new DesiredStateApplier(dir.resolve("casc"), dir.resolve("secrets"), actions, bearer,
        Clock.systemUTC()), actions, new DeliveryReplay(client, Clock.systemUTC()), new JobRuns(client, Clock.systemUTC()),
        Clock.systemUTC(),
        (command, result) -> { });
  }

  @AfterEach
  void tearDown() {
    runner.close();
    jenkins.close();
  }

  @Test
  void restartsJenkinsWithNoBuildRunningAndUpSinceMoves() throws Exception {
    bearer.update(tokens.mint());
    ObservedState before = client.observe();
    assertThat(before.getJenkinsUpSinceEpochMillis()).isPositive();
    Instant requested = Instant.now();

    CommandResult result = run(safeRestart("restart-1"));

    assertThat(result.getOutcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(result.getJenkinsStatus()).isEqualTo(302);
    assertThat(result.getMessage()).startsWith("Jenkins accepted the safe restart");
    await().atMost(WAIT).until(() -> jenkins.restarts() == 1);
    // no poll saw Jenkins down: the new X-Jenkins-Session alone says it restarted
    ObservedState after = client.observe();
    assertThat(after.getJenkinsUpSinceEpochMillis()).isGreaterThan(requested.toEpochMilli());
    assertThat(after.getQuietingDown()).isFalse();
    assertThat(client.observe().getJenkinsUpSinceEpochMillis()).isEqualTo(after.getJenkinsUpSinceEpochMillis());
  }

  @Test
  void upSinceMovesWhenAPollSawJenkinsRestarting() throws Exception {
    bearer.update(tokens.mint());
    long upBefore = client.observe().getJenkinsUpSinceEpochMillis();
    jenkins.restartTimings(Duration.ofSeconds(2), Duration.ofMillis(400), Duration.ofMillis(400));

    assertThat(run(safeRestart("restart-2")).getOutcome()).isEqualTo(Outcome.SUCCEEDED);

    ObservedState restarting = await().atMost(WAIT).until(client::observe, state -> !state.getBootError().isEmpty());
    assertThat(restarting.getBootError()).contains("Jenkins is restarting");
    // 503 is no answer of a serving Jenkins: the last up-since stays until it serves again
    assertThat(restarting.getJenkinsUpSinceEpochMillis()).isEqualTo(upBefore);
    ObservedState back = await().atMost(WAIT).until(client::observe, state -> state.getBootError().isEmpty()
        && state.getJenkinsReachable() && state.getJenkinsUpSinceEpochMillis() != upBefore);
    assertThat(back.getJenkinsUpSinceEpochMillis()).isGreaterThan(upBefore);
    assertThat(jenkins.restarts()).isEqualTo(1);
  }

  @Test
  void restartWaitsUntilTheRunningBuildEnds() throws Exception {
    bearer.update(tokens.mint());
    long upBefore = client.observe().getJenkinsUpSinceEpochMillis();
    RunningBuild pipeline = jenkins.startBuild("pipeline", true);

    CommandResult result = run(safeRestart("restart-3"));

    assertThat(result.getOutcome()).isEqualTo(Outcome.SUCCEEDED);
    ObservedState waiting = client.observe();
    assertThat(waiting.getQuietingDown()).isTrue();
    assertThat(waiting.getRunningBuilds()).isEqualTo(1);
    assertThat(waiting.getJenkinsUpSinceEpochMillis()).isEqualTo(upBefore);
    assertThat(jenkins.safeRestartPending()).isTrue();
    assertThat(jenkins.restarts()).isZero();

    pipeline.finish();

    await().atMost(WAIT).until(() -> jenkins.restarts() == 1);
    ObservedState back = client.observe();
    assertThat(back.getJenkinsUpSinceEpochMillis()).isGreaterThan(upBefore);
    assertThat(back.getQuietingDown()).isFalse();
    assertThat(back.getRunningBuilds()).isZero();
  }

  @Test
  void cancelQuietDownWhileItWaitsAbandonsTheRestart() throws Exception {
    bearer.update(tokens.mint());
    RunningBuild build = jenkins.startBuild("deploy", false);
    assertThat(run(safeRestart("restart-4")).getOutcome()).isEqualTo(Outcome.SUCCEEDED);

    assertThat(run(oneShot("cancel-4", OneShot.Action.CANCEL_QUIET_DOWN)).getOutcome()).isEqualTo(Outcome.SUCCEEDED);

    await().atMost(WAIT).until(() -> !jenkins.safeRestartPending());
    build.finish();
    assertThat(jenkins.restarts()).isZero();
    assertThat(client.observe().getQuietingDown()).isFalse();
  }

  @Test
  void failsWithJenkinsReasonWhenItCannotRestartItself() throws Exception {
    bearer.update(tokens.mint());
    jenkins.restartNotSupported("Restart is not supported in this running mode (hudson.lifecycle.Lifecycle$1).");

    CommandResult result = run(safeRestart("restart-5"));

    assertThat(result.getOutcome()).isEqualTo(Outcome.FAILED);
    assertThat(result.getJenkinsStatus()).isEqualTo(500);
    assertThat(result.getMessage()).startsWith("Jenkins cannot restart itself as it runs now (HTTP 500")
        .contains("hudson.lifecycle.Lifecycle", "A problem occurred while processing the request");
    assertThat(jenkins.quietingDown()).isFalse();
  }

  @Test
  void failsNamingThePermissionWhenTheMiteMayNotManage() throws Exception {
    bearer.update(tokens.mint());
    jenkins.bearerMayManage(false);

    CommandResult result = run(safeRestart("restart-6"));

    assertThat(result.getOutcome()).isEqualTo(Outcome.FAILED);
    assertThat(result.getJenkinsStatus()).isEqualTo(403);
    assertThat(result.getMessage()).isEqualTo("Jenkins refused POST /safeRestart (HTTP 403): mite lacks "
        + "hudson.model.Hudson.Manage (a safe restart needs hudson.model.Hudson.Manage or Administer): "
        + "Access Denied: mite is missing the Overall/Manage permission");
    assertThat(jenkins.safeRestartPending()).isFalse();
  }

  @Test
  void failsSayingTheMiteHoldsNoTokenYet() {
    CommandResult result = run(safeRestart("restart-7"));

    assertThat(result.getOutcome()).isEqualTo(Outcome.FAILED);
    assertThat(result.getJenkinsStatus()).isEqualTo(403);
    assertThat(result.getMessage()).contains("the mite holds no Jenkins token yet",
        "No valid crumb was included in the request");
    assertThat(jenkins.quietingDown()).isFalse();
  }

  @Test
  void failsWhileJenkinsBoots() {
    bearer.update(tokens.mint());
    jenkins.booting();

    CommandResult result = run(safeRestart("restart-8"));

    assertThat(result.getOutcome()).isEqualTo(Outcome.FAILED);
    assertThat(result.getJenkinsStatus()).isEqualTo(503);
    assertThat(result.getMessage()).startsWith("Jenkins is not serving (HTTP 503")
        .contains("Jenkins is getting ready to work");
  }

  @Test
  void failsWhenNothingListens() throws Exception {
    JenkinsClient closed = new JenkinsClient(ClosedPort.jenkinsUrl(), bearer, Clock.systemUTC());
    try (CommandRunner nowhere = new CommandRunner(null, new JenkinsActions(closed, Clock.systemUTC()), null,
        null, Clock.systemUTC(), (command, result) -> { })) {
      nowhere.submit(safeRestart("restart-9"), result -> results.put(result.getCommandId(), result));
      await().atMost(WAIT).until(() -> results.containsKey("restart-9"));
    }

    assertThat(results.get("restart-9").getOutcome()).isEqualTo(Outcome.FAILED);
    assertThat(results.get("restart-9").getMessage()).isEqualTo("Jenkins is not running (nothing listens at its address)");
    assertThat(closed.observe().getJenkinsUpSinceEpochMillis()).isZero();
  }

  private static Command safeRestart(String id) {
    return oneShot(id, OneShot.Action.SAFE_RESTART);
  }

  private static Command oneShot(String id, OneShot.Action action) {
    return Command.newBuilder().setCommandId(id)
        .setDeadlineEpochMillis(Instant.now().plusSeconds(30).toEpochMilli())
        .setOneShot(OneShot.newBuilder().setAction(action)).build();
  }

  private CommandResult run(Command command) {
    runner.submit(command, result -> results.put(result.getCommandId(), result));
    await().atMost(WAIT).until(() -> results.containsKey(command.getCommandId()));
    return results.get(command.getCommandId());
  }
}
