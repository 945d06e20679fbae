package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.CommandResult.Outcome;
import dev.varroa.protocol.mite.v1.Parameter;
import dev.varroa.protocol.mite.v1.RunJob;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;
import dev.varroa.testfixtures.jenkins.QueuedItem;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RunJob against the Jenkins contract fixture's build routes, with the plugin's real JWT check on the bearer. */
class RunJobIT {

  private static final ControllerIdentity CONTROLLER = new ControllerIdentity("team-a", "cell-1", "uid-1");

  @TempDir
  Path dir;

  private JenkinsFixture jenkins;
  private OperatorTokens tokens;
  private JenkinsBearer bearer;
  private CommandRunner runner;
  private final Map<String, CommandResult> results = new ConcurrentHashMap<>();

  @BeforeEach
  void setUp() throws Exception {
    jenkins = JenkinsFixture.start();
    tokens = OperatorTokens.forController(CONTROLLER, dir);
    jenkins.bearerTokenAccepted(tokens.accepted());
    jenkins.defineJob("team-a/build");
    jenkins.defineJob("team-a/deploy", List.of("TARGET", "NOTE"));
    bearer = new JenkinsBearer(Clock.systemUTC());
    bearer.update(tokens.mint());
    runner = runnerFor(jenkins.url());
  }

  private CommandRunner runnerFor(URI url) {
    JenkinsClient client = new JenkinsClient(url, bearer, Clock.systemUTC());
    return new CommandRunner(null, new JenkinsActions(client, Clock.systemUTC()), null,
        new JobRuns(client, Clock.systemUTC()), Clock.systemUTC(), (command, result) -> { });
  }

  @AfterEach
  void tearDown() {
    runner.close();
    jenkins.close();
  }

  private static Command runJob(String id, String job, Duration deadline, Parameter... parameters) {
    return Command.newBuilder().setCommandId(id)
        .setDeadlineEpochMillis(Instant.now().plus(deadline).toEpochMilli())
        .setRunJob(RunJob.newBuilder().setJob(job).addAllParameters(List.of(parameters))
            .setReason("varroactl run pipeline by alice, request r-1"))
        .build();
  }

  private static Parameter parameter(String name, String value) {
    return Parameter.newBuilder().setName(name).setValue(value).build();
  }

  private CommandResult run(CommandRunner on, Command command) {
    on.submit(command, result -> results.put(result.getCommandId(), result));
    await().atMost(Duration.ofSeconds(30)).until(() -> results.containsKey(command.getCommandId()));
    return results.get(command.getCommandId());
  }

  @Test
  void queuesABuildAndReturnsTheQueueIdFromTheLocation() {
    CommandResult result = run(runner, runJob("r-1", "team-a/build", Duration.ofSeconds(30)));

    assertThat(result.getOutcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(result.getJenkinsStatus()).isEqualTo(201);
    QueuedItem item = jenkins.requestedBuilds().get(0);
    assertThat(item.jobName()).isEqualTo("team-a/build");
    assertThat(result.getQueueId()).isEqualTo(item.id()).isPositive();
    assertThat(result.getMessage()).contains("queue item " + item.id());
  }

  @Test
  void sendsTheParametersAsFormFieldsToBuildWithParameters() {
    CommandResult result = run(runner, runJob("r-2", "team-a/deploy", Duration.ofSeconds(30),
        parameter("TARGET", "eu west/1"), parameter("NOTE", "a&b=c+d ü")));

    assertThat(result.getOutcome()).isEqualTo(Outcome.SUCCEEDED);
    QueuedItem item = jenkins.requestedBuilds().get(0);
    assertThat(result.getQueueId()).isEqualTo(item.id());
    assertThat(item.parameters()).containsExactly(Map.entry("TARGET", "eu west/1"), Map.entry("NOTE", "a&b=c+d ü"));
    assertThat(jenkins.requests()).extracting(request -> request.path())
        .contains("/job/team-a/job/deploy/buildWithParameters");
  }

  @Test
  void keepsTheQueueIdOfAnIdenticalItemStillWaiting() {
    CommandResult first = run(runner, runJob("r-2a", "team-a/deploy", Duration.ofSeconds(30), parameter("TARGET", "eu")));
    CommandResult second = run(runner, runJob("r-2b", "team-a/deploy", Duration.ofSeconds(30), parameter("TARGET", "eu")));

    assertThat(second.getOutcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(second.getJenkinsStatus()).isEqualTo(303);
    assertThat(second.getQueueId()).isEqualTo(first.getQueueId());
    assertThat(second.getMessage()).contains("already waiting");
    assertThat(jenkins.requestedBuilds()).hasSize(1);
  }

  @Test
  void runsAParameterizedJobWithoutParametersThroughBuildWithParametersDefaults() {
    CommandResult result = run(runner, runJob("r-3", "team-a/deploy", Duration.ofSeconds(30)));

    assertThat(result.getOutcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(jenkins.requestedBuilds().get(0).parameters()).containsExactly(Map.entry("TARGET", ""),
        Map.entry("NOTE", ""));
  }

  @Test
  void encodesEachSegmentOfTheJobName() {
    jenkins.defineJob("team a/build é");

    CommandResult result = run(runner, runJob("r-4", "team a/build é", Duration.ofSeconds(30)));

    assertThat(result.getOutcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(jenkins.requestedBuilds()).extracting(QueuedItem::jobName).containsExactly("team a/build é");
  }

  @Test
  void failsNamingTheJobWhenJenkinsHasNone() {
    CommandResult result = run(runner, runJob("r-5", "team-a/missing", Duration.ofSeconds(30)));

    assertThat(result.getOutcome()).isEqualTo(Outcome.FAILED);
    assertThat(result.getJenkinsStatus()).isEqualTo(404);
    assertThat(result.getMessage()).startsWith("no job team-a/missing on this controller");
    assertThat(result.getQueueId()).isZero();
  }

  @Test
  void failsWithJenkinsStatusAndTextForOtherAnswers() {
    CommandResult result = run(runner, runJob("r-6", "team-a/build", Duration.ofSeconds(30), parameter("A", "1")));

    assertThat(result.getOutcome()).isEqualTo(Outcome.FAILED);
    assertThat(result.getJenkinsStatus()).isEqualTo(400);
    assertThat(result.getMessage()).contains("HTTP 400").contains("team-a/build is not parameterized");
  }

  @Test
  void rejectsAJobNameWithAnEmptyOrDotSegmentWithoutCallingJenkins() {
    for (String bad : List.of("", "team-a//build", "team-a/../other", "./build")) {
      CommandResult result = run(runner, runJob("bad-" + bad, bad, Duration.ofSeconds(30)));

      assertThat(result.getOutcome()).as(bad).isEqualTo(Outcome.REJECTED);
      assertThat(result.getMessage()).as(bad).startsWith("run_job.job");
    }
    CommandResult unnamed = run(runner, runJob("bad-parameter", "team-a/deploy", Duration.ofSeconds(30),
        parameter("", "x")));
    assertThat(unnamed.getOutcome()).isEqualTo(Outcome.REJECTED);
    assertThat(unnamed.getMessage()).startsWith("run_job.parameters[0].name is empty");
    assertThat(jenkins.requests()).isEmpty();
  }

  @Test
  void retriesWhileJenkinsBootsAndSucceedsOnceItServes() {
    jenkins.booting();
    runner.submit(runJob("r-7", "team-a/build", Duration.ofSeconds(30)),
        result -> results.put(result.getCommandId(), result));
    await().atMost(Duration.ofSeconds(10)).until(() -> jenkins.requests().stream()
        .filter(request -> request.status() == 503).count() >= 2);

    jenkins.ready();

    await().atMost(Duration.ofSeconds(20)).until(() -> results.containsKey("r-7"));
    assertThat(results.get("r-7").getOutcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(results.get("r-7").getQueueId()).isEqualTo(jenkins.requestedBuilds().get(0).id());
  }

  @Test
  void aJobRunWaitingForJenkinsHoldsNoOtherCommandBack() {
    // after a wake the desired state Jenkins boots on arrives behind the run: it must not wait for the run's deadline
    jenkins.booting();
    runner.submit(runJob("r-wait", "team-a/build", Duration.ofSeconds(30)),
        result -> results.put(result.getCommandId(), result));
    await().atMost(Duration.ofSeconds(10)).until(() -> jenkins.requests().stream()
        .filter(request -> request.status() == 503).count() >= 1);
    Command next = Command.newBuilder().setCommandId("after-the-run")
        .setDeadlineEpochMillis(Instant.now().plusSeconds(30).toEpochMilli())
        .setOneShot(dev.varroa.protocol.mite.v1.OneShot.newBuilder()
            .setAction(dev.varroa.protocol.mite.v1.OneShot.Action.CANCEL_QUIET_DOWN)).build();

    runner.submit(next, result -> results.put(result.getCommandId(), result));

    await().atMost(Duration.ofSeconds(20)).until(() -> results.containsKey("after-the-run"));
    assertThat(results).doesNotContainKey("r-wait");
    assertThat(runner.idle()).as("a job run in flight keeps the runner busy").isFalse();
    jenkins.ready();
    await().atMost(Duration.ofSeconds(20)).until(() -> results.containsKey("r-wait"));
    assertThat(results.get("r-wait").getOutcome()).isEqualTo(Outcome.SUCCEEDED);
  }

  @Test
  void retriesWhileNothingListensAndSucceedsOnceJenkinsStarts() throws Exception {
    URI later = ClosedPort.jenkinsUrl();
    try (CommandRunner waiting = runnerFor(later)) {
      waiting.submit(runJob("r-8", "team-a/build", Duration.ofSeconds(30)),
          result -> results.put(result.getCommandId(), result));
      await().atMost(Duration.ofSeconds(10)).until(() -> !waiting.idle());

      try (JenkinsFixture started = JenkinsFixture.start(JenkinsFixture.DEFAULT_VERSION, null,
          new InetSocketAddress(InetAddress.getLoopbackAddress(), later.getPort()))) {
        started.bearerTokenAccepted(tokens.accepted());
        started.defineJob("team-a/build");

        await().atMost(Duration.ofSeconds(20)).until(() -> results.containsKey("r-8"));
        assertThat(results.get("r-8").getOutcome()).isEqualTo(Outcome.SUCCEEDED);
        assertThat(results.get("r-8").getQueueId()).isEqualTo(started.requestedBuilds().get(0).id());
      }
    }
  }

  @Test
  void waitsForItsJenkinsTokenWhenItHasNoneYet() {
    JenkinsBearer empty = new JenkinsBearer(Clock.systemUTC());
    JenkinsClient client = new JenkinsClient(jenkins.url(), empty, Clock.systemUTC());
    try (CommandRunner tokenless = new CommandRunner(null, new JenkinsActions(client, Clock.systemUTC()), null,
        new JobRuns(client, Clock.systemUTC()), Clock.systemUTC(), (command, result) -> { })) {
      tokenless.submit(runJob("r-9", "team-a/build", Duration.ofSeconds(30)),
          result -> results.put(result.getCommandId(), result));
      await().atMost(Duration.ofSeconds(10)).until(() -> jenkins.requests().stream()
          .anyMatch(request -> request.status() == 403));

      empty.update(tokens.mint());

      await().atMost(Duration.ofSeconds(20)).until(() -> results.containsKey("r-9"));
      assertThat(results.get("r-9").getOutcome()).isEqualTo(Outcome.SUCCEEDED);
    }
  }

  @Test
  void givesUpAtTheDeadlineSayingJenkinsNeverAnswered() {
    jenkins.booting();

    CommandResult result = run(runner, runJob("r-10", "team-a/build", Duration.ofSeconds(2)));

    assertThat(result.getOutcome()).isEqualTo(Outcome.DEADLINE_EXCEEDED);
    assertThat(result.getMessage()).startsWith("Jenkins never answered POST /job/team-a/job/build/build before the "
        + "command deadline").contains("HTTP 503");
    assertThat(jenkins.requestedBuilds()).isEmpty();
  }
}
