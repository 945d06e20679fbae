package dev.varroa.benchmarks.latency;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WebhookTriggerTest {

  @Test
  void signsTheBodyAsGitHubDocumentsIt() {
    // the example of GitHub's "Validating webhook deliveries"
    assertThat(WebhookTrigger.signature("It's a Secret to Everybody",
        "Hello, World!".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo("sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17");
  }

  @Test
  void pushBodyNamesTheBranchRefTheCommitAndTheCloneUrl() throws Exception {
    WebhookTrigger trigger = new WebhookTrigger(Optional.empty(), "s", "main", "http://127.0.0.1:1/git/latency.git");

    JsonNode body = new ObjectMapper().readTree(trigger.body("0123abcd"));

    assertThat(body.get("ref").asText()).isEqualTo("refs/heads/main");
    assertThat(body.get("after").asText()).isEqualTo("0123abcd");
    assertThat(body.get("repository").get("clone_url").asText()).isEqualTo("http://127.0.0.1:1/git/latency.git");
  }

  @Test
  void saysWhyItCannotRunWithoutAReceiver() {
    assertThat(new WebhookTrigger(Optional.empty(), "s", "main", "http://x/git/r.git").unavailable())
        .get().asString().contains("no webhook receiver");
  }
}
