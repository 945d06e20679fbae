package dev.varroa.testfixtures.jenkins;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 15 (hibernation): the build queue, the plugin's last user request, and webhook deliveries. */
class HibernationRoutesTest {

    private static final String GOOD_JWT = "good.jwt.signature";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();
    private JenkinsFixture jenkins;

    @BeforeEach
    void setUp() {
        jenkins = JenkinsFixture.start();
        jenkins.bearerTokenAccepted(GOOD_JWT::equals);
    }

    @AfterEach
    void tearDown() {
        jenkins.close();
    }

    @Test
    void exportsQueuedItemsUntilTheyLeaveTheQueue() throws Exception {
        QueuedItem first = jenkins.enqueue("app");
        QueuedItem second = jenkins.enqueue("lib");

        JsonNode pruned = json(get("queue/api/json?tree=items[id]", GOOD_JWT));
        first.leave();
        JsonNode after = json(get("queue/api/json", GOOD_JWT));

        assertThat(pruned.toString()).isEqualTo("{\"_class\":\"hudson.model.Queue\",\"items\":["
                + "{\"_class\":\"hudson.model.Queue$BuildableItem\",\"id\":1},"
                + "{\"_class\":\"hudson.model.Queue$BuildableItem\",\"id\":2}]}");
        assertThat(after.get("items")).hasSize(1);
        assertThat(after.get("items").get(0).get("id").asLong()).isEqualTo(second.id());
        assertThat(after.get("items").get(0).get("why").asText()).isEqualTo("Waiting for next available executor");
        assertThat(after.get("discoverableItems")).isEmpty();
    }

    @Test
    void answersTheLastUserRequestOnceSetAnd404Before() throws Exception {
        assertThat(get("varroa/activity", GOOD_JWT).statusCode()).isEqualTo(404);

        jenkins.lastUserRequest(Instant.ofEpochMilli(1_767_225_600_000L));
        HttpResponse<String> served = get("varroa/activity", GOOD_JWT);

        assertThat(served.statusCode()).isEqualTo(200);
        assertThat(json(served).get("lastUserRequestEpochMillis").asLong()).isEqualTo(1_767_225_600_000L);
        assertThat(get("varroa/activity", null).statusCode()).isEqualTo(403);
    }

    @Test
    void takesAnAnonymousPostToAnUnknownPathAsAWebhookDelivery() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(jenkins.url().resolve("github-webhook/?x=1"))
                .header("Content-Type", "application/json")
                .header("X-GitHub-Event", "push")
                .header("X-Hub-Signature-256", "sha256=0a1b")
                .POST(HttpRequest.BodyPublishers.ofString("{\"ref\":\"refs/heads/main\"}")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(jenkins.deliveries()).singleElement().satisfies(delivery -> {
            assertThat(delivery.method()).isEqualTo("POST");
            assertThat(delivery.path()).isEqualTo("/github-webhook/");
            assertThat(delivery.query()).isEqualTo("x=1");
            assertThat(delivery.header("x-github-event")).contains("push");
            assertThat(delivery.header("X-Hub-Signature-256")).contains("sha256=0a1b");
            assertThat(delivery.bodyText()).isEqualTo("{\"ref\":\"refs/heads/main\"}");
            assertThat(delivery.caller()).isEqualTo(Caller.ANONYMOUS);
        });
    }

    @Test
    void stillRefusesAnonymousPostsToJenkinsOwnApisAndGetsToUnknownPaths() throws Exception {
        HttpResponse<String> quietDown = http.send(HttpRequest.newBuilder(jenkins.url().resolve("quietDown"))
                .POST(HttpRequest.BodyPublishers.ofString("x", StandardCharsets.UTF_8)).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(quietDown.statusCode()).isEqualTo(403);
        assertThat(get("github-webhook/", GOOD_JWT).statusCode()).isEqualTo(404);
        assertThat(jenkins.deliveries()).isEmpty();
        assertThat(jenkins.quietingDown()).isFalse();
    }

    private HttpResponse<String> get(String path, String bearer) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(jenkins.url().resolve(path)).GET();
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        assertThat(response.statusCode()).isEqualTo(200);
        return JSON.readTree(response.body());
    }
}
