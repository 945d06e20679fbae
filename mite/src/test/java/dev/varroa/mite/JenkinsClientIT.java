package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.mite.v1.ObservedState;
import dev.varroa.testfixtures.jenkins.Caller;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;
import dev.varroa.testfixtures.jenkins.RunningBuild;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the mite observes of Jenkins, against the Jenkins contract fixture and the plugin's real JWT check. */
class JenkinsClientIT {

  private static final ControllerIdentity CONTROLLER = new ControllerIdentity("team-a", "ci", "uid-1");

  @TempDir
  Path dir;

  private JenkinsFixture jenkins;
  private JenkinsBearer bearer;
  private JenkinsClient client;
  private OperatorTokens tokens;

  @BeforeEach
  void setUp() throws Exception {
    jenkins = JenkinsFixture.start("2.555.2");
    tokens = OperatorTokens.forController(CONTROLLER, dir);
    jenkins.bearerTokenAccepted(tokens.accepted());
    bearer = new JenkinsBearer(Clock.systemUTC());
    client = new JenkinsClient(jenkins.url(), bearer);
  }

  @AfterEach
  void tearDown() {
    jenkins.close();
  }

  @Test
  void countsBusyExecutorsIncludingOneOffExecutors() throws Exception {
    bearer.update(tokens.mint());
    RunningBuild freestyle = jenkins.startBuild("freestyle", false);
    jenkins.startBuild("pipeline", true);
    jenkins.startBuild("pipeline", true);

    ObservedState observed = client.observe();

    assertThat(observed.getJenkinsReachable()).isTrue();
    assertThat(observed.getJenkinsVersion()).isEqualTo("2.555.2");
    assertThat(observed.getRunningBuilds()).isEqualTo(3);
    assertThat(observed.getQuietingDown()).isFalse();
    assertThat(observed.getBootError()).isEmpty();
    freestyle.finish();
    assertThat(client.runningBuilds()).isEqualTo(2);
    assertThat(jenkins.requests()).allSatisfy(r -> assertThat(r.caller()).isEqualTo(Caller.VERIFIED_BEARER));
  }

  @Test
  void reportsQueuedBuildsAgentNodesAndTheLastUserRequest() throws Exception {
    bearer.update(tokens.mint());
    jenkins.enqueue("app");
    jenkins.enqueue("lib").leave();
    jenkins.enqueue("docs");
    jenkins.addAgent("maven-k8s-7xq2p");
    jenkins.addAgent("arm64-builder");
    jenkins.lastUserRequest(Instant.parse("2026-01-01T09:41:00Z"));

    ObservedState observed = client.observe();

    assertThat(observed.getQueuedBuilds()).isEqualTo(2);
    assertThat(observed.getAgentNodesList()).containsExactly("arm64-builder", "maven-k8s-7xq2p");
    assertThat(observed.getAgentNodesObserved()).isTrue();
    assertThat(observed.getLastUserRequestEpochMillis())
        .isEqualTo(Instant.parse("2026-01-01T09:41:00Z").toEpochMilli());
  }

  @Test
  void reportsTheLastUserRequestUnknownWhenThePluginHasNoActivityRoute() throws Exception {
    bearer.update(tokens.mint());

    ObservedState observed = client.observe();

    assertThat(observed.getLastUserRequestEpochMillis()).isZero();
    assertThat(observed.getQueuedBuilds()).isZero();
    assertThat(observed.getAgentNodesList()).isEmpty();
    // the computer API answered: no agents, not "unknown"
    assertThat(observed.getAgentNodesObserved()).isTrue();
    assertThat(jenkins.requests()).filteredOn(r -> r.path().equals("/varroa/activity"))
        .extracting(r -> r.status()).containsExactly(404);
  }

  @Test
  void seesQuietDown() throws Exception {
    bearer.update(tokens.mint());
    new JenkinsActions(client, Clock.systemUTC()).quietDown(java.time.Instant.now().plusSeconds(30));

    assertThat(jenkins.quietingDown()).isTrue();
    assertThat(client.observe().getQuietingDown()).isTrue();
  }

  @Test
  void reportsTheBootFailureJenkinsAnswersWith503() throws Exception {
    jenkins.bootFailed("Failed to load plugin 'git': needs credentials 2.6");

    ObservedState observed = client.observe();

    assertThat(observed.getJenkinsReachable()).isTrue();
    assertThat(observed.getBootError()).contains("Jenkins failed to start", "Failed to load plugin 'git'");
  }

  @Test
  void reportsJenkinsUnreachableWhenNothingListens() throws Exception {
    ObservedState observed = new JenkinsClient(ClosedPort.jenkinsUrl(), bearer).observe();

    assertThat(observed).isEqualTo(ObservedState.newBuilder().setJenkinsReachable(false).build());
  }

  @Test
  void sendsNoCredentialsWithoutAToken() throws Exception {
    ObservedState observed = client.observe();

    assertThat(observed.getJenkinsReachable()).isTrue();
    assertThat(observed.getJenkinsVersion()).isEqualTo("2.555.2");
    assertThat(jenkins.requests()).allSatisfy(r -> assertThat(r.caller()).isEqualTo(Caller.ANONYMOUS));
  }
}
