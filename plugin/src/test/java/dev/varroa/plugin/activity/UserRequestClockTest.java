package dev.varroa.plugin.activity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.plugin.testing.SteppedClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class UserRequestClockTest {

  private static final String POD_IP = "10.42.0.17";
  private static final Instant NINE_41_30 = Instant.parse("2026-01-01T09:41:30.250Z");

  private final SteppedClock clock = new SteppedClock(NINE_41_30);
  private final UserRequestClock activity = new UserRequestClock(clock);

  private static InboundRequest request(String address, String authorization, String userAgent, String path) {
    return new InboundRequest(address, authorization, userAgent, path);
  }

  @Test
  void reportsNoUseBeforeAnyRequest() {
    assertThat(activity.lastUserRequestEpochMillis()).isZero();
    assertThat(activity.toJson()).isEqualTo("{\"lastUserRequestEpochMillis\":0}");
  }

  @Test
  void remembersABrowserVisitTruncatedToTheMinute() {
    RequestSource source = activity.seen(request(POD_IP, null, "Mozilla/5.0 (X11; Linux x86_64)", "/job/app/"));

    assertThat(source).isEqualTo(RequestSource.USER);
    assertThat(activity.lastUserRequestEpochMillis()).isEqualTo(Instant.parse("2026-01-01T09:41:00Z").toEpochMilli());
    assertThat(activity.toJson()).isEqualTo("{\"lastUserRequestEpochMillis\":1767260460000}");
  }

  @Test
  void staysOnTheSameMinuteForUseWithinItAndMovesOnTheNext() {
    activity.seen(request(POD_IP, "Basic dXNlcjp0b2tlbg==", "curl/8.5.0", "/api/json"));
    clock.advance(Duration.ofSeconds(20));
    activity.seen(request(POD_IP, null, "Mozilla/5.0", "/"));
    long sameMinute = activity.lastUserRequestEpochMillis();
    clock.advance(Duration.ofSeconds(20));
    activity.seen(request(POD_IP, null, "Mozilla/5.0", "/"));

    assertThat(sameMinute).isEqualTo(Instant.parse("2026-01-01T09:41:00Z").toEpochMilli());
    assertThat(activity.lastUserRequestEpochMillis()).isEqualTo(Instant.parse("2026-01-01T09:42:00Z").toEpochMilli());
  }

  @Test
  void ignoresTheMitePollingFromLoopbackWithItsBearerToken() {
    for (String loopback : new String[] {"127.0.0.1", "::1", "0:0:0:0:0:0:0:1", "[::1]", "::ffff:127.0.0.1"}) {
      assertThat(activity.seen(request(loopback, "Bearer eyJhbGciOiJFUzI1NiJ9.e30.sig", "Java-http-client/17",
          "/computer/api/json"))).as(loopback).isEqualTo(RequestSource.MITE);
    }
    assertThat(activity.lastUserRequestEpochMillis()).isZero();
  }

  @Test
  void countsABearerFromOutsideThePodAndLoopbackWithoutABearerAsUse() {
    assertThat(activity.seen(request(POD_IP, "Bearer eyJ.e30.sig", "terraform/1.9", "/api/json")))
        .isEqualTo(RequestSource.USER);
    // a replayed webhook delivery: the mite sends it from loopback without its token
    assertThat(activity.seen(request("127.0.0.1", null, "GitHub-Hookshot/5a1b2c3", "/github-webhook/")))
        .isEqualTo(RequestSource.USER);
    assertThat(activity.lastUserRequestEpochMillis()).isPositive();
  }

  @Test
  void ignoresKubeletProbes() {
    assertThat(activity.seen(request("10.42.0.1", null, "kube-probe/1.31", "/login")))
        .isEqualTo(RequestSource.KUBELET_PROBE);
    assertThat(activity.lastUserRequestEpochMillis()).isZero();
  }

  @Test
  void ignoresAgentsConnecting() {
    for (String path : new String[] {"/wsagents/", "/tcpSlaveAgentListener/", "/jnlpJars/agent.jar",
        "/computer/maven-k8s-7xq2p/jenkins-agent.jnlp", "/computer/old/slave-agent.jnlp"}) {
      assertThat(activity.seen(request("10.42.3.9", null, "Java/17.0.15", path))).as(path)
          .isEqualTo(RequestSource.AGENT_CONNECTION);
    }
    assertThat(activity.lastUserRequestEpochMillis()).isZero();
  }

  @Test
  void neverGoesBackwardsWhenTheWallClockSteps() {
    activity.seen(request(POD_IP, null, "Mozilla/5.0", "/"));
    long first = activity.lastUserRequestEpochMillis();
    clock.set(NINE_41_30.minus(Duration.ofMinutes(5)));
    activity.seen(request(POD_IP, null, "Mozilla/5.0", "/"));

    assertThat(activity.lastUserRequestEpochMillis()).isEqualTo(first);
  }

  @Test
  void keepsTheAuthorizationHeaderOutOfToString() {
    assertThat(request("127.0.0.1", "Bearer s3cret", "x", "/").toString()).doesNotContain("s3cret");
  }
}
