package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.mite.v1.Header;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which replayed deliveries the mite accepts, and which of their headers it sends on. */
class DeliveryReplayTest {

  private static Header header(String name, String value) {
    return Header.newBuilder().setName(name).setValue(value).build();
  }

  @Test
  void acceptsPathsOnJenkinsOwnUrlSpace() {
    assertThat(DeliveryReplay.pathProblem("/github-webhook/")).isEmpty();
    assertThat(DeliveryReplay.pathProblem("/project/app/build?token=abc&cause=push")).isEmpty();
    assertThat(DeliveryReplay.pathProblem("/job/a%20b/build")).isEmpty();
    assertThat(DeliveryReplay.pathProblem("/multibranch-webhook-trigger/invoke?token=x..y")).isEmpty();
  }

  @Test
  void rejectsPathsThatAreNotRelativeToJenkinsRoot() {
    assertThat(DeliveryReplay.pathProblem("")).get().asString().contains("replay_delivery.path is empty");
    assertThat(DeliveryReplay.pathProblem("github-webhook/")).get().asString().contains("does not start with /");
    assertThat(DeliveryReplay.pathProblem("http://evil.example/x")).get().asString().contains("does not start with /");
    assertThat(DeliveryReplay.pathProblem("//evil.example/x")).get().asString().contains("another host");
    assertThat(DeliveryReplay.pathProblem("/\\evil.example/x")).get().asString().contains("another host");
    assertThat(DeliveryReplay.pathProblem("/a b")).get().asString().contains("not a valid URI path");
    assertThat(DeliveryReplay.pathProblem("/x#frag")).get().asString().contains("fragment");
  }

  @Test
  void rejectsDotDotSegmentsAlsoWhenPercentEncoded() {
    assertThat(DeliveryReplay.pathProblem("/github-webhook/../script")).get().asString()
        .contains("\"..\" segment", "e.g. /github-webhook/");
    assertThat(DeliveryReplay.pathProblem("/..")).isPresent();
    assertThat(DeliveryReplay.pathProblem("/a/%2e%2e/script")).isPresent();
    assertThat(DeliveryReplay.pathProblem("/a/%2E%2E/script")).isPresent();
  }

  @Test
  void neverShowsTheQueryOfARejectedPath() {
    assertThat(DeliveryReplay.pathProblem("/a/../b?token=s3cret")).get().asString().doesNotContain("s3cret");
  }

  @Test
  void dropsConnectionHeadersAndKeepsTheDeliveryOnesInOrder() {
    List<Map.Entry<String, String>> forwarded = DeliveryReplay.forwardedHeaders(List.of(
        header("Host", "ci.example.com"),
        header("Content-Type", "application/json"),
        header("Content-Length", "512"),
        header("Connection", "keep-alive, X-Hop"),
        header("X-Hop", "1"),
        header("Keep-Alive", "timeout=5"),
        header("Transfer-Encoding", "chunked"),
        header("TE", "trailers"),
        header("Upgrade", "h2c"),
        header("Proxy-Authorization", "Basic cHJveHk6cHc="),
        header("Expect", "100-continue"),
        header("X-GitHub-Event", "push"),
        header("X-Hub-Signature-256", "sha256=abc"),
        header("x-github-event", "ping")));

    assertThat(forwarded).extracting(e -> e.getKey() + ": " + e.getValue()).containsExactly(
        "Content-Type: application/json", "X-GitHub-Event: push", "X-Hub-Signature-256: sha256=abc",
        "x-github-event: ping");
  }
}
