package dev.varroa.testfixtures.jenkins;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** POST /safeRestart as Jenkins#doSafeRestart and Jenkins#safeRestart answer it, and the restart that follows. */
class SafeRestartRouteTest {

    private static final String GOOD_JWT = "good.jwt.signature";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();
    private JenkinsFixture jenkins;

    @BeforeEach
    void startJenkins() {
        jenkins = JenkinsFixture.start();
        jenkins.bearerTokenAccepted(GOOD_JWT::equals);
        jenkins.restartTimings(Duration.ofMillis(300), Duration.ofMillis(300), Duration.ofMillis(300));
    }

    @AfterEach
    void stopJenkins() {
        jenkins.close();
    }

    @Test
    void restartsThroughEveryPhaseAndComesBackFresh() throws Exception {
        String sessionBefore = jenkins.sessionHash();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        AtomicBoolean polling = new AtomicBoolean(true);
        Thread poller = new Thread(() -> {
            while (polling.get()) {
                seen.add(phase());
            }
        });
        poller.start();

        HttpResponse<String> accepted = post("safeRestart?message=weekly", GOOD_JWT);

        assertThat(accepted.statusCode()).isEqualTo(302);
        assertThat(accepted.headers().firstValue("Location")).contains(jenkins.url().toString());
        await().atMost(Duration.ofSeconds(10)).until(() -> jenkins.restarts() == 1);
        // the restart may count before the poller's next look: wait until it has seen Jenkins ready again
        await().atMost(Duration.ofSeconds(10)).until(() -> seen.contains("ready") && seen.contains("booting"));
        polling.set(false);
        poller.join();
        assertThat(seen).contains("restarting", "down", "booting", "ready");
        HttpResponse<String> api = get("api/json", GOOD_JWT);
        assertThat(api.statusCode()).isEqualTo(200);
        assertThat(json(api).get("quietingDown").asBoolean()).isFalse();
        assertThat(api.headers().firstValue("X-Jenkins-Session")).isPresent().get().isNotEqualTo(sessionBefore);
        assertThat(jenkins.sessionHash()).isNotEqualTo(sessionBefore);
    }

    @Test
    void waitsForTheRunningBuildThenForgetsIt() throws Exception {
        RunningBuild build = jenkins.startBuild("deploy", false);
        RunningBuild pipeline = jenkins.startBuild("pipeline", true);

        assertThat(post("safeRestart", GOOD_JWT).statusCode()).isEqualTo(302);

        assertThat(jenkins.quietingDown()).isTrue();
        assertThat(jenkins.safeRestartPending()).isTrue();
        build.finish();
        // still one build on a one-off executor: the restart keeps waiting and Jenkins keeps serving
        assertThat(get("api/json", GOOD_JWT).statusCode()).isEqualTo(200);
        assertThat(jenkins.restarts()).isZero();
        assertThat(jenkins.safeRestartPending()).isTrue();
        pipeline.finish();
        await().atMost(Duration.ofSeconds(10)).until(() -> jenkins.restarts() == 1);
        assertThat(jenkins.safeRestartPending()).isFalse();
    }

    @Test
    void restartDropsABuildStillOnAnExecutorWhenItHappens() throws Exception {
        jenkins.restartTimings(Duration.ofSeconds(2), Duration.ofMillis(300), Duration.ofMillis(300));
        assertThat(post("safeRestart", GOOD_JWT).statusCode()).isEqualTo(302);
        await().atMost(Duration.ofSeconds(10)).until(() -> phase().equals("restarting"));
        // Jenkins' own wait (RestartListener#isAllReady) lets a resumable Pipeline through; here a test puts one there
        jenkins.startBuild("pipeline", true);
        jenkins.startBuild("deploy", false);

        await().atMost(Duration.ofSeconds(10)).until(() -> jenkins.restarts() == 1);

        JsonNode computers = json(get("computer/api/json?tree=computer[executors[idle],oneOffExecutors[idle]]", GOOD_JWT));
        assertThat(computers.at("/computer/0/executors/0/idle").asBoolean()).isTrue();
        assertThat(computers.at("/computer/0/oneOffExecutors").size()).isZero();
    }

    @Test
    void cancellingQuietDownAbandonsTheWaitingRestart() throws Exception {
        RunningBuild build = jenkins.startBuild("deploy", false);
        assertThat(post("safeRestart", GOOD_JWT).statusCode()).isEqualTo(302);

        assertThat(post("cancelQuietDown", GOOD_JWT).statusCode()).isEqualTo(302);

        await().atMost(Duration.ofSeconds(10)).until(() -> !jenkins.safeRestartPending());
        build.finish();
        assertThat(jenkins.restarts()).isZero();
        assertThat(jenkins.quietingDown()).isFalse();
    }

    @Test
    void cancelParameterCancelsQuietDownLikeThePageButton() throws Exception {
        jenkins.startBuild("deploy", false);
        post("safeRestart", GOOD_JWT);

        HttpResponse<String> cancel = post("safeRestart?cancel=Cancel", GOOD_JWT);

        assertThat(cancel.statusCode()).isEqualTo(302);
        assertThat(jenkins.quietingDown()).isFalse();
        await().atMost(Duration.ofSeconds(10)).until(() -> !jenkins.safeRestartPending());
    }

    @Test
    void refusesWith500WhenTheLifecycleCannotRestart() throws Exception {
        jenkins.restartNotSupported("Restart is not supported in this running mode (hudson.lifecycle.Lifecycle$1).");

        HttpResponse<String> page = get("safeRestart", GOOD_JWT);
        HttpResponse<String> refused = post("safeRestart", GOOD_JWT);

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("Jenkins cannot restart itself as currently configured.");
        assertThat(refused.statusCode()).isEqualTo(500);
        assertThat(refused.body()).contains("A problem occurred while processing the request");
        assertThat(jenkins.quietingDown()).isFalse();
        assertThat(jenkins.safeRestartPending()).isFalse();
    }

    @Test
    void refusesACallerWithoutManageWith403NamingThePermission() throws Exception {
        jenkins.bearerMayManage(false);

        for (String path : List.of("safeRestart", "quietDown", "cancelQuietDown")) {
            HttpResponse<String> refused = post(path, GOOD_JWT);

            assertThat(refused.statusCode()).as(path).isEqualTo(403);
            assertThat(refused.headers().firstValue("X-Required-Permission")).as(path).contains("hudson.model.Hudson.Manage");
            assertThat(refused.headers().firstValue("X-You-Are-Authenticated-As")).as(path).contains("mite");
            assertThat(refused.body()).as(path).contains("mite is missing the Overall/Manage permission");
        }
        assertThat(jenkins.quietingDown()).isFalse();
        assertThat(jenkins.safeRestartPending()).isFalse();
    }

    @Test
    void refusesAnonymousBeforeTheRoute() throws Exception {
        HttpResponse<String> refused = post("safeRestart", null);

        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).contains("No valid crumb was included in the request");
        assertThat(jenkins.quietingDown()).isFalse();
    }

    @Test
    void runsTheBootConfigurationAgainWhenItComesBack() throws Exception {
        jenkins.configureAtBoot();
        post("safeRestart", GOOD_JWT);

        await().atMost(Duration.ofSeconds(10)).until(() -> jenkins.restarts() == 1);

        assertThat(jenkins.appliedConfigurations()).extracting(AppliedConfiguration::trigger)
                .containsExactly(JenkinsFixture.BOOT_TRIGGER, JenkinsFixture.BOOT_TRIGGER);
    }

    // One poll of the root: which restart phase a client sees.
    private String phase() {
        try {
            HttpResponse<String> root = get("api/json", GOOD_JWT);
            if (root.statusCode() == 200) {
                return "ready";
            }
            if (root.statusCode() == 503) {
                return root.body().contains("Jenkins is restarting") ? "restarting" : "booting";
            }
            return "HTTP " + root.statusCode();
        } catch (ConnectException e) {
            return "down";
        } catch (IOException e) {
            return e.getCause() instanceof ConnectException ? "down" : "failed: " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private HttpResponse<String> get(String path, String bearer) throws IOException, InterruptedException {
        return http.send(request(path, bearer).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String bearer) throws IOException, InterruptedException {
        return http.send(request(path, bearer).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder request(String path, String bearer) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(jenkins.url() + path)).timeout(Duration.ofSeconds(10));
        return bearer == null ? builder : builder.header("Authorization", "Bearer " + bearer);
    }

    private static JsonNode json(HttpResponse<String> response) throws IOException {
        return JSON.readTree(response.body());
    }
}
