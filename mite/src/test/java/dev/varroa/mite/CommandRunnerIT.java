package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.CommandResult.Outcome;
import dev.varroa.protocol.mite.v1.DesiredState;
import dev.varroa.protocol.mite.v1.File;
import dev.varroa.protocol.mite.v1.Header;
import dev.varroa.protocol.mite.v1.OneShot;
import dev.varroa.protocol.mite.v1.ReplayDelivery;
import dev.varroa.testfixtures.jenkins.AppliedConfiguration;
import dev.varroa.testfixtures.jenkins.Caller;
import dev.varroa.testfixtures.jenkins.ConfigurationSource;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;
import dev.varroa.testfixtures.jenkins.ReceivedDelivery;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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

/** Commands applied to the Jenkins contract fixture, with the plugin's real JWT check on the bearer. */
class CommandRunnerIT {

  private static final ControllerIdentity CONTROLLER = new ControllerIdentity("team-a", "ci", "uid-1");

  @TempDir
  Path dir;

  private JenkinsFixture jenkins;
  private OperatorTokens tokens;
  private Path casc;
  private Path secrets;
  private CommandRunner runner;
  private final Map<String, CommandResult> results = new ConcurrentHashMap<>();

  @BeforeEach
  void setUp() throws Exception {
    jenkins = JenkinsFixture.start();
    tokens = OperatorTokens.forController(CONTROLLER, dir);
    jenkins.bearerTokenAccepted(tokens.accepted());
    casc = dir.resolve("casc");
    secrets = dir.resolve("secrets");
    Files.createDirectories(casc);
    jenkins.cascDirectory(casc);
    JenkinsBearer bearer = new JenkinsBearer(Clock.systemUTC());
    JenkinsClient client = new JenkinsClient(jenkins.url(), bearer);
    JenkinsActions actions = new JenkinsActions(client, Clock.systemUTC());
    runner = new CommandRunner(new DesiredStateApplier(casc, secrets, actions, bearer, Clock.systemUTC()), actions,
        new DeliveryReplay(client, Clock.systemUTC()), new JobRuns(client, Clock.systemUTC()), Clock.systemUTC(),
        (command, result) -> { });
  }

  @AfterEach
  void tearDown() {
    runner.close();
    jenkins.close();
  }

  private static File file(String path, String content) {
    return File.newBuilder().setPath(path).setContent(ByteString.copyFrom(content, StandardCharsets.UTF_8)).build();
  }

  private Command desiredState(String id, String digest, String yaml, Duration deadline) {
    return Command.newBuilder()
        .setCommandId(id)
        .setDeadlineEpochMillis(Instant.now().plus(deadline).toEpochMilli())
        .setDesiredState(DesiredState.newBuilder()
            .setBundleDigest(digest)
            .addJcascFiles(file("jenkins.yaml", yaml))
            .addSecretFiles(file("admin-password", "hunter2"))
            .setJenkinsToken(tokens.mint()))
        .build();
  }

  private Command oneShot(String id, OneShot.Action action) {
    return Command.newBuilder().setCommandId(id)
        .setDeadlineEpochMillis(Instant.now().plusSeconds(30).toEpochMilli())
        .setOneShot(OneShot.newBuilder().setAction(action)).build();
  }

  private CommandResult run(Command command) {
    runner.submit(command, result -> results.put(result.getCommandId(), result));
    await().atMost(Duration.ofSeconds(20)).until(() -> results.containsKey(command.getCommandId()));
    return results.get(command.getCommandId());
  }

  @Test
  void appliesDesiredStateAndJenkinsReadsTheFiles() throws Exception {
    CommandResult result = run(desiredState("c-1", "sha256:111", "jenkins:\n  systemMessage: hello\n",
        Duration.ofMinutes(1)));

    assertThat(result.getOutcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(result.getJenkinsStatus()).isEqualTo(302);
    assertThat(result.getBundleDigest()).isEqualTo("sha256:111");
    AppliedConfiguration applied = jenkins.lastAppliedConfiguration().orElseThrow();
    assertThat(applied.trigger()).isEqualTo("/configuration-as-code/reload");
    assertThat(applied.sources()).extracting(ConfigurationSource::yaml)
        .containsExactly("jenkins:\n  systemMessage: hello\n");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secrets.resolve("admin-password"))))
        .isEqualTo("r--------");
  }

  @Test
  void reportsJenkinsOwnMessageWhenItRejectsTheConfiguration() {
    jenkins.rejectConfiguration("No configurator for the following root elements: jenkins.systemMesage");

    CommandResult result = run(desiredState("c-2", "sha256:222", "jenkins:\n  systemMesage: typo\n",
        Duration.ofMinutes(1)));

    assertThat(result.getOutcome()).isEqualTo(Outcome.FAILED);
    // ConfigurationAsCode#doReload answers 200 with its error page: the status alone does not tell
    assertThat(result.getJenkinsStatus()).isEqualTo(200);
    assertThat(result.getMessage())
        .isEqualTo("Error loading configuration: No configurator for the following root elements: jenkins.systemMesage");
    assertThat(jenkins.appliedConfigurations()).isEmpty();
  }

  @Test
  void givesUpAtTheCommandDeadlineWhenTheReloadIsSlow() {
    jenkins.configurationDelay(Duration.ofSeconds(10));

    CommandResult result = run(desiredState("c-3", "sha256:333", "a: 1\n", Duration.ofSeconds(2)));

    assertThat(result.getOutcome()).isEqualTo(Outcome.DEADLINE_EXCEEDED);
    assertThat(result.getJenkinsStatus()).isZero();
  }

  @Test
  void answersDeadlineExceededWithoutCallingJenkinsWhenTheDeadlineAlreadyPassed() {
    CommandResult result = run(desiredState("c-4", "sha256:444", "a: 1\n", Duration.ofSeconds(-1)));

    assertThat(result.getOutcome()).isEqualTo(Outcome.DEADLINE_EXCEEDED);
    assertThat(jenkins.requests()).isEmpty();
  }

  @Test
  void failsWithJenkinsStatusWhenTheTokenIsRefused() {
    jenkins.bearerTokenAccepted(token -> false);

    CommandResult result = run(desiredState("c-5", "sha256:555", "a: 1\n", Duration.ofMinutes(1)));

    assertThat(result.getOutcome()).isEqualTo(Outcome.FAILED);
    assertThat(result.getJenkinsStatus()).isEqualTo(401);
    assertThat(result.getMessage()).isEqualTo("HTTP ERROR 401 Unauthorized");
  }

  @Test
  void letsTheNewestDesiredStateWin() throws Exception {
    jenkins.configurationDelay(Duration.ofSeconds(1));
    runner.submit(desiredState("first", "sha256:1", "n: 1\n", Duration.ofMinutes(1)),
        result -> results.put(result.getCommandId(), result));
    // the first one runs once its file is on disk; the next two wait behind it
    await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(casc.resolve("jenkins.yaml")));
    runner.submit(desiredState("second", "sha256:2", "n: 2\n", Duration.ofMinutes(1)),
        result -> results.put(result.getCommandId(), result));
    runner.submit(desiredState("third", "sha256:3", "n: 3\n", Duration.ofMinutes(1)),
        result -> results.put(result.getCommandId(), result));

    await().atMost(Duration.ofSeconds(20)).until(() -> results.size() == 3);
    assertThat(results.get("first").getOutcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(results.get("second").getOutcome()).isEqualTo(Outcome.REJECTED);
    assertThat(results.get("second").getMessage()).contains("superseded", "third");
    assertThat(results.get("third").getOutcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(jenkins.appliedConfigurations()).extracting(a -> a.sources().get(0).yaml())
        .containsExactly("n: 1\n", "n: 3\n");
  }

  @Test
  void runsOneShotActions() {
    run(desiredState("token", "sha256:0", "a: 1\n", Duration.ofMinutes(1)));

    assertThat(run(oneShot("q", OneShot.Action.QUIET_DOWN)).getOutcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(jenkins.quietingDown()).isTrue();
    assertThat(run(oneShot("c", OneShot.Action.CANCEL_QUIET_DOWN)).getOutcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(jenkins.quietingDown()).isFalse();
    assertThat(run(oneShot("r", OneShot.Action.RELOAD_CONFIGURATION)).getOutcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(jenkins.appliedConfigurations()).hasSize(2);
    assertThat(run(oneShot("u", OneShot.Action.ACTION_UNSPECIFIED)).getOutcome()).isEqualTo(Outcome.REJECTED);
    assertThat(run(Command.newBuilder().setCommandId("k").build()).getOutcome()).isEqualTo(Outcome.REJECTED);
    assertThat(jenkins.requests()).extracting(r -> r.method() + " " + r.path() + " " + r.status())
        .containsExactly("POST /configuration-as-code/reload 302", "POST /quietDown 302", "POST /cancelQuietDown 302",
            "POST /configuration-as-code/reload 302");
  }

  private static Command replay(String id, String method, String path, String body, Header... headers) {
    return Command.newBuilder().setCommandId(id)
        .setDeadlineEpochMillis(Instant.now().plusSeconds(30).toEpochMilli())
        .setReplayDelivery(ReplayDelivery.newBuilder().setMethod(method).setPath(path)
            .addAllHeaders(List.of(headers)).setBody(ByteString.copyFrom(body, StandardCharsets.UTF_8)))
        .build();
  }

  private static Header header(String name, String value) {
    return Header.newBuilder().setName(name).setValue(value).build();
  }

  @Test
  void replaysAKeptWebhookDeliveryWithItsHeadersAndBodyAndWithoutTheMiteToken() {
    run(desiredState("token", "sha256:0", "a: 1\n", Duration.ofMinutes(1)));

    CommandResult result = run(replay("r-1", "POST", "/github-webhook/?from=waker", "{\"ref\":\"refs/heads/main\"}",
        header("Host", "ci.example.com"), header("Content-Type", "application/json"),
        header("Content-Length", "999"), header("Connection", "keep-alive"),
        header("User-Agent", "GitHub-Hookshot/5a1b2c3"), header("X-GitHub-Event", "push"),
        header("X-GitHub-Delivery", "72d3162e-cc78-11e3-81ab-4c9367dc0958"),
        header("X-Hub-Signature-256", "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17")));

    assertThat(result.getOutcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(result.getJenkinsStatus()).isEqualTo(200);
    assertThat(result.getMessage()).contains("POST /github-webhook/").doesNotContain("from=waker");
    ReceivedDelivery delivery = jenkins.deliveries().get(0);
    assertThat(delivery.path()).isEqualTo("/github-webhook/");
    assertThat(delivery.query()).isEqualTo("from=waker");
    assertThat(delivery.bodyText()).isEqualTo("{\"ref\":\"refs/heads/main\"}");
    assertThat(delivery.caller()).isEqualTo(Caller.ANONYMOUS);
    assertThat(delivery.header("Authorization")).isEmpty();
    assertThat(delivery.header("X-GitHub-Event")).contains("push");
    assertThat(delivery.header("X-Hub-Signature-256"))
        .contains("sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17");
    assertThat(delivery.header("User-Agent")).contains("GitHub-Hookshot/5a1b2c3");
    assertThat(delivery.header("Host")).hasValueSatisfying(host -> assertThat(host).startsWith("127.0.0.1:"));
    assertThat(delivery.header("Content-Length")).contains(String.valueOf(delivery.body().length));
    assertThat(delivery.header("Connection")).isEmpty();
  }

  @Test
  void failsWithJenkinsStatusAndMessageWhenJenkinsRefusesTheReplayedDelivery() {
    CommandResult result = run(replay("r-2", "POST", "/quietDown", ""));

    assertThat(result.getOutcome()).isEqualTo(Outcome.FAILED);
    assertThat(result.getJenkinsStatus()).isEqualTo(403);
    assertThat(result.getMessage()).isEqualTo("HTTP ERROR 403 No valid crumb was included in the request");
    assertThat(jenkins.quietingDown()).isFalse();
  }

  @Test
  void rejectsAReplayWhosePathLeavesJenkinsWithoutCallingIt() {
    CommandResult dotDot = run(replay("r-3", "POST", "/github-webhook/../script?token=s3cret", "println 1"));
    CommandResult absolute = run(replay("r-4", "POST", "http://evil.example/github-webhook/", "{}"));

    assertThat(dotDot.getOutcome()).isEqualTo(Outcome.REJECTED);
    assertThat(dotDot.getMessage()).contains("\"..\" segment").doesNotContain("s3cret");
    assertThat(absolute.getOutcome()).isEqualTo(Outcome.REJECTED);
    assertThat(absolute.getJenkinsStatus()).isZero();
    assertThat(jenkins.requests()).isEmpty();
  }

  @Test
  void givesUpOnAReplayAtTheCommandDeadline() {
    Command late = replay("r-5", "POST", "/github-webhook/", "{}").toBuilder()
        .setDeadlineEpochMillis(Instant.now().minusSeconds(1).toEpochMilli()).build();

    CommandResult result = run(late);

    assertThat(result.getOutcome()).isEqualTo(Outcome.DEADLINE_EXCEEDED);
    assertThat(jenkins.deliveries()).isEmpty();
  }

  @Test
  void removesJcascFilesNoLongerListedBeforeJenkinsReloads() throws Exception {
    Files.writeString(casc.resolve("stale.yaml"), "stale: true\n");

    run(desiredState("c-6", "sha256:666", "fresh: true\n", Duration.ofMinutes(1)));

    assertThat(jenkins.lastAppliedConfiguration().orElseThrow().sources()).extracting(ConfigurationSource::origin)
        .containsExactly(casc.resolve("jenkins.yaml").toAbsolutePath().toString());
    assertThat(List.of(casc.toFile().list())).containsExactly("jenkins.yaml");
  }
}
