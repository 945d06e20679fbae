package dev.varroa.cli.bff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.cli.VarroactlRun;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffStack;
import dev.varroa.dashboard.api.LiveStreams;
import dev.varroa.dashboard.mcp.McpEndpoint;
import dev.varroa.dashboard.records.RecordedRuns;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.oidc.BrowserLogin;
import dev.varroa.testfixtures.oidc.OidcProviderExtension;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.nats.client.Connection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * varroactl logs and get activity through a BFF with a real record store (PostgreSQL, the postgres log tier):
 * the whole console log by ranges, followed to its end, and bindings that hide another team's runs.
 */
@WithKubeApiServer
class LogsCommandIT {

  private static final int PORT = BffFixtures.port();
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();
  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(BffFixtures.user("alice"), BffFixtures.user("bob")),
      List.of(BffStack.redirectUri(PORT)));

  private static Connection operatorBus;
  private static Connection bffBus;
  private static RecordedRuns records;
  private static BffStack stack;
  private static Path configs;



  @BeforeAll
  static void start(KubeApiServer kube, @TempDir Path cache, @TempDir Path configRoot) throws Exception {
    KubernetesClient client = kube.client();
    BffFixtures.namespaces(client, "team-a", "team-b");
    BffFixtures.controller(client, "team-a", "orders", Map.of());
    BffFixtures.controller(client, "team-b", "search", Map.of());
    BffFixtures.readerRole(client);
    BffFixtures.binding(client, "alice-reads-all", "reader", "User", "alice", null);
    BffFixtures.binding(client, "bob-reads-team-b", "reader", "User", "bob", "team-b");
    configs = configRoot;
    records = RecordedRuns.seed(POSTGRES.server(), cache);
    operatorBus = NATS.server().connect();
    bffBus = NATS.server().connect();
    stack = BffStack.start(client, cache.resolve("operator"), operatorBus, bffBus,
        BffStack.oidc(OIDC.provider(), PORT), PORT, records.reads,
        reads -> new LiveStreams(reads, Optional.empty(), Optional.of(records.logs)), McpEndpoint.mount(records.tail));
    for (String name : List.of("alice", "bob")) {
      Path token = configRoot.resolve(name + ".token");
      Files.writeString(token, BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), name,
          BffFixtures.password(name)).idToken());
      VarroactlRun login = varroactl(name, "login", "--server", stack.url(), "--token-file", token.toString());
      assertThat(login.exitCode()).as(login.err()).isZero();
    }
    await().atMost(DEADLINE).until(() -> varroactl("alice", "get", "controllers").out().contains("search"));
  }

  @AfterAll
  static void stop() throws Exception {
    stack.close();
    records.close();
    operatorBus.close();
    bffBus.close();
  }

  @Test
  void printsARunsWholeConsoleLog() {
    VarroactlRun logs = varroactl("alice", "logs", "team-a/orders", "deploy", "7");
    assertThat(logs.exitCode()).as(logs.err()).isZero();
    assertThat(logs.out()).isEqualTo(RecordedRuns.LOG);
  }

  @Test
  void followsALogToItsEnd() {
    VarroactlRun follow = varroactl("alice", "logs", "team-a/orders", "deploy", "7", "-f");
    assertThat(follow.exitCode()).as(follow.err()).isZero();
    assertThat(follow.out()).isEqualTo(RecordedRuns.LOG);
  }

  @Test
  void anotherTeamsRunIsNotThere() {
    VarroactlRun bob = varroactl("bob", "logs", "team-a/orders", "deploy", "7");
    assertThat(bob.exitCode()).isEqualTo(1);
    assertThat(bob.out()).isEmpty();
  }

  @Test
  void activityHistoryFilteredByBinding() {
    VarroactlRun alice = varroactl("alice", "get", "activity");
    assertThat(alice.exitCode()).as(alice.err()).isZero();
    assertThat(alice.out()).contains("team-a/orders is Connected").contains("team-b/search is Connected");
    VarroactlRun bob = varroactl("bob", "get", "activity");
    assertThat(bob.out()).contains("team-b/search is Connected").doesNotContain("team-a/orders");
  }

  private static VarroactlRun varroactl(String user, String... args) {
    return VarroactlRun.in(Map.of("XDG_CONFIG_HOME", configs == null ? "/nonexistent"
        : configs.resolve(user).toString()), args);
  }

}
