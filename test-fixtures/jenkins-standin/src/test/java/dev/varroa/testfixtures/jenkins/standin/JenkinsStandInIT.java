package dev.varroa.testfixtures.jenkins.standin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.protocol.builds.v1.BuildEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The stand-in as the image runs it, in this JVM on a free port: the environment the operator renders for Jenkins. */
class JenkinsStandInIT {

    private static final String AUDIENCE = "spiffe://varroa.dev/ns/team-a/controller/ci/uid/6f1c2d3e-0000-4000-8000-000000000001";
    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path pod;

    private final HttpClient http = HttpClient.newHttpClient();
    private final OperatorKey operator = operatorKey();
    private MiteLoopbackRecorder mite;
    private Map<String, String> env;
    private JenkinsStandIn standIn;

    @BeforeEach
    void arrangeThePod() throws Exception {
        Path casc = Files.createDirectories(pod.resolve("casc"));
        Files.writeString(casc.resolve("jenkins.yaml"), "jenkins:\n  systemMessage: stand-in\n");
        operator.writePublicPem(pod.resolve("public.pem"));
        mite = MiteLoopbackRecorder.start(pod.resolve("loopback-token"), "loopback-secret");
        env = new HashMap<>(Map.of(
                "JENKINS_HOME", pod.resolve("jenkins-home").toString(),
                "CASC_JENKINS_CONFIG", casc.toString(),
                "VARROA_JWT_PUBLIC_KEY_FILE", pod.resolve("public.pem").toString(),
                "VARROA_CONTROLLER_NAMESPACE", "team-a",
                "VARROA_CONTROLLER_NAME", "ci",
                "VARROA_CONTROLLER_UID", "6f1c2d3e-0000-4000-8000-000000000001",
                "CONTROLLER_NAMESPACE", "team-a",
                "CONTROLLER_NAME", "ci"));
        env.putAll(Map.of(
                "VARROA_LOOPBACK_URL", mite.url(),
                "VARROA_LOOPBACK_TOKEN_FILE", pod.resolve("loopback-token").toString(),
                StandInSettings.BIND_HOST_VARIABLE, "127.0.0.1",
                StandInSettings.HTTP_PORT_VARIABLE, "0"));
        standIn = JenkinsStandIn.start(StandInSettings.fromEnvironment(env));
    }

    @AfterEach
    void stop() throws Exception {
        if (standIn != null) {
            standIn.close();
        }
        mite.close();
    }

    @Test
    void answersTheLoginProbeAndSaysItIsAStandInEverywhere() throws Exception {
        HttpResponse<String> login = get("login", null);
        HttpResponse<String> page = get("varroa-standin/", null);

        assertThat(login.statusCode()).isEqualTo(200);
        assertThat(login.headers().firstValue("X-Jenkins")).isPresent();
        assertThat(login.headers().firstValue(StandInBanner.HEADER)).contains(StandInBanner.HEADER_VALUE);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<title>Varroa Jenkins stand-in (not Jenkins)</title>");
        assertThat(page.headers().firstValue(StandInBanner.HEADER)).contains(StandInBanner.HEADER_VALUE);
    }

    @Test
    void appliesTheCascFolderAtBootAndVerifiesTheOperatorsToken() throws Exception {
        HttpResponse<String> withToken = get("api/json", operator.token(AUDIENCE));
        HttpResponse<String> otherController = get("api/json",
                operator.token(AUDIENCE.replace("controller/ci", "controller/other")));
        HttpResponse<String> anonymous = get("api/json", null);
        HttpResponse<String> forged = get("api/json", new OperatorKey().token(AUDIENCE));

        assertThat(standIn.jenkins().lastAppliedConfiguration()).hasValueSatisfying(applied -> {
            assertThat(applied.trigger()).isEqualTo("startup");
            assertThat(applied.sources()).singleElement().satisfies(source ->
                    assertThat(source.yaml()).contains("systemMessage: stand-in"));
        });
        assertThat(withToken.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(withToken.body()).path("useSecurity").asBoolean()).isTrue();
        assertThat(otherController.statusCode()).isEqualTo(401);
        assertThat(anonymous.statusCode()).isEqualTo(403);
        assertThat(forged.statusCode()).isEqualTo(401);
    }

    @Test
    void playsABuildThroughThePluginCoreToTheMitesLoopbackListener() throws Exception {
        HttpResponse<String> started = post("varroa-standin/builds?job=team/app&lines=120");
        assertThat(started.statusCode()).isEqualTo(201);
        String runId = JSON.readTree(started.body()).path("runId").asText();
        assertThat(started.headers().firstValue("Location")).contains("/varroa-standin/builds/" + runId);

        await().atMost(DEADLINE).until(() -> mite.logComplete(runId) && mite.events(runId).stream()
                .anyMatch(BuildEvent::hasRunFinalized));
        List<BuildEvent> events = mite.events(runId);
        assertThat(events).extracting(BuildEvent::getSequence).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
        assertThat(events.get(0).hasRunQueued()).isTrue();
        assertThat(events.get(1).getRunStarted().getBuildNumber()).isEqualTo(1);
        assertThat(events).extracting(BuildEvent::getJob).containsOnly("team/app");
        assertThat(events.get(8).getRunFinalized().getResult()).isEqualTo("SUCCESS");
        Path log = pod.resolve("jenkins-home/jobs/team/jobs/app/builds/1/log");
        assertThat(mite.log(runId)).isEqualTo(Files.readAllBytes(log));
        assertThat(Files.readAllLines(log)).hasSize(120).last().isEqualTo("Finished: SUCCESS");
        JsonNode run = JSON.readTree(get("varroa-standin/builds/" + runId, null).body());
        assertThat(run.path("state").asText()).isEqualTo("finished");
        assertThat(run.path("result").asText()).isEqualTo("SUCCESS");
    }

    @Test
    void aBuildRequestOfAnyJobPlaysARunWhoseRunQueuedCarriesTheQueueIdOfTheLocation() throws Exception {
        HttpResponse<String> queued = postAsMite("job/team-a/job/build/build", "");

        assertThat(queued.statusCode()).isEqualTo(201);
        String location = queued.headers().firstValue("Location").orElseThrow();
        assertThat(location).matches(java.util.regex.Pattern.quote(standIn.url().toString()) + "queue/item/\\d+/");
        long queueId = Long.parseLong(location.replaceAll(".*/queue/item/(\\d+)/", "$1"));
        String runId = await().atMost(DEADLINE).until(() -> playedRunOf("team-a/build"), id -> id != null);
        await().atMost(DEADLINE).until(() -> mite.logComplete(runId) && mite.events(runId).stream()
                .anyMatch(BuildEvent::hasRunFinalized));
        List<BuildEvent> events = mite.events(runId);
        assertThat(events.get(0).getRunQueued().getQueueId()).isEqualTo(queueId);
        assertThat(events.get(0).getRunQueued().getCause()).isEqualTo("Started by user mite");
        assertThat(events.get(events.size() - 1).getRunFinalized().getResult()).isEqualTo("SUCCESS");
        assertThat(Files.readAllLines(pod.resolve("jenkins-home/jobs/team-a/jobs/build/builds/1/log")))
                .hasSize(PlayedBuilds.REQUESTED_BUILD_LINES);
    }

    @Test
    void buildWithParametersPicksTheResultAndTheLinesOfThePlayedRun() throws Exception {
        HttpResponse<String> queued = postAsMite("job/team-a/job/deploy/buildWithParameters",
                "VARROA_STANDIN_RESULT=unstable&VARROA_STANDIN_LINES=5&VARROA_STANDIN_SECONDS=0&TARGET=eu");

        assertThat(queued.statusCode()).isEqualTo(201);
        String runId = await().atMost(DEADLINE).until(() -> playedRunOf("team-a/deploy"), id -> id != null);
        await().atMost(DEADLINE).until(() -> mite.logComplete(runId) && mite.events(runId).stream()
                .anyMatch(BuildEvent::hasRunFinalized));
        assertThat(mite.events(runId).stream().filter(BuildEvent::hasRunFinalized).findFirst().orElseThrow()
                .getRunFinalized().getResult()).isEqualTo("UNSTABLE");
        assertThat(Files.readAllLines(pod.resolve("jenkins-home/jobs/team-a/jobs/deploy/builds/1/log"))).hasSize(5)
                .last().isEqualTo("Finished: UNSTABLE");
        assertThat(standIn.jenkins().requestedBuilds().get(0).parameters()).containsEntry("TARGET", "eu");
    }

    @Test
    void aResultItCannotPlayFailsTheRunSayingWhy() throws Exception {
        postAsMite("job/app/buildWithParameters", "VARROA_STANDIN_RESULT=GREEN");

        String runId = await().atMost(DEADLINE).until(() -> playedRunOf("app"), id -> id != null);
        await().atMost(DEADLINE).until(() -> mite.logComplete(runId) && mite.events(runId).stream()
                .anyMatch(BuildEvent::hasRunFinalized));
        assertThat(mite.events(runId).stream().filter(BuildEvent::hasRunFinalized).findFirst().orElseThrow()
                .getRunFinalized().getResult()).isEqualTo("FAILURE");
        assertThat(new String(mite.log(runId), java.nio.charset.StandardCharsets.UTF_8))
                .contains("VARROA_STANDIN_RESULT=GREEN is not a Jenkins result");
    }

    @Test
    void refusesABuildOfANameJenkinsWouldRefuse() throws Exception {
        HttpResponse<String> refused = post("varroa-standin/builds?job=team/../app");

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("Jenkins#checkGoodName");
    }

    @Test
    void keepsAgentsBuildNumbersAndConfigurationOnTheSameHomeAndAbortsTheInterruptedRun() throws Exception {
        HttpResponse<String> added = post("varroa-standin/agents?name=linux-1");
        assertThat(added.statusCode()).isEqualTo(201);
        String secret = JSON.readTree(added.body()).path("secret").asText();
        assertThat(secret).isEqualTo(standIn.jenkins().agentSecret("linux-1"));
        HttpResponse<String> first = post("varroa-standin/builds?job=app&lines=100&seconds=60");
        String interrupted = JSON.readTree(first.body()).path("runId").asText();
        await().atMost(DEADLINE).until(() -> mite.events(interrupted).stream().anyMatch(BuildEvent::hasStageStarted));
        JsonNode computers = JSON.readTree(get("computer/api/json?depth=1", operator.token(AUDIENCE)).body());
        assertThat(computers.path("computer").get(0).path("oneOffExecutors").get(0).path("idle").asBoolean()).isFalse();

        standIn.close();
        standIn = null;
        standIn = JenkinsStandIn.start(StandInSettings.fromEnvironment(env));

        assertThat(standIn.jenkins().agents()).containsExactly("linux-1");
        assertThat(standIn.jenkins().agentSecret("linux-1")).isEqualTo(secret);
        JsonNode agent = JSON.readTree(get("varroa-standin/agents/linux-1", null).body());
        assertThat(agent.path("known").asBoolean()).isTrue();
        assertThat(agent.path("secret").asText()).isEqualTo(secret);
        await().atMost(DEADLINE).until(() -> mite.events(interrupted).stream().anyMatch(BuildEvent::hasRunFinalized));
        assertThat(mite.events(interrupted).stream().filter(BuildEvent::hasRunFinalized).findFirst().orElseThrow()
                .getRunFinalized().getResult()).isEqualTo("ABORTED");
        HttpResponse<String> second = post("varroa-standin/builds?job=app&lines=3");
        assertThat(JSON.readTree(second.body()).path("number").asInt()).isEqualTo(2);
        JsonNode status = JSON.readTree(get("varroa-standin/api/json", null).body());
        assertThat(status.path("appliedConfigurations").findValuesAsText("trigger")).containsExactly("startup", "startup");
        assertThat(status.path("agents").get(0).asText()).isEqualTo("linux-1");
    }

    @Test
    void refusesAnAgentWithoutAName() throws Exception {
        HttpResponse<String> refused = post("varroa-standin/agents");

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("name is missing");
    }

    @Test
    void failsTheBootAsJenkinsDoesWhenTheCascPathIsMissing() throws Exception {
        standIn.close();
        env.put("CASC_JENKINS_CONFIG", pod.resolve("no-such-folder").toString());
        standIn = JenkinsStandIn.start(StandInSettings.fromEnvironment(env));

        HttpResponse<String> login = get("login", null);

        assertThat(login.statusCode()).isEqualTo(503);
        assertThat(login.body()).contains("Jenkins failed to start", "no-such-folder");
    }

    @Test
    void safeRestartComesBackWithItsOwnRoutesAndAppliesTheCascFolderAgain() throws Exception {
        String sessionBefore = standIn.jenkins().sessionHash();
        HttpResponse<String> accepted = http.send(HttpRequest.newBuilder(URI.create(standIn.url() + "safeRestart"))
                .header("Authorization", "Bearer " + operator.token(AUDIENCE))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(accepted.statusCode()).isEqualTo(302);
        await().atMost(DEADLINE).until(() -> standIn.jenkins().restarts() == 1);
        HttpResponse<String> login = get("login", null);
        HttpResponse<String> page = get("varroa-standin/", null);
        assertThat(login.statusCode()).isEqualTo(200);
        assertThat(login.headers().firstValue("X-Jenkins-Session")).isPresent().get().isNotEqualTo(sessionBefore);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue(StandInBanner.HEADER)).contains(StandInBanner.HEADER_VALUE);
        assertThat(standIn.jenkins().appliedConfigurations()).extracting(applied -> applied.trigger())
                .containsExactly("startup", "startup");
    }

    private HttpResponse<String> get(String path, String bearer) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(standIn.url() + path)).GET();
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(standIn.url() + path))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> postAsMite(String path, String form) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(standIn.url() + path))
                .header("Authorization", "Bearer " + operator.token(AUDIENCE))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }

    // The run id of the job's first played run, from the stand-in's status route; null until it plays.
    private String playedRunOf(String job) throws Exception {
        for (JsonNode run : JSON.readTree(get("varroa-standin/api/json", null).body()).path("runs")) {
            if (run.path("job").asText().equals(job)) {
                return run.path("runId").asText();
            }
        }
        return null;
    }

    private static OperatorKey operatorKey() {
        try {
            return new OperatorKey();
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
