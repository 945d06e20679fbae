package dev.varroa.testfixtures.jenkins;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

class JenkinsFixtureTest {

    private static final String GOOD_JWT = "good.jwt.signature";
    private static final String FORGED_JWT = "forged.jwt.signature";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();
    private JenkinsFixture jenkins;

    @BeforeEach
    void startJenkins() {
        jenkins = JenkinsFixture.start("2.555.2");
        jenkins.bearerTokenAccepted(GOOD_JWT::equals);
    }

    @AfterEach
    void stopJenkins() {
        jenkins.close();
    }

    @Test
    void advertisesVersionOnLoginAndApiButNotOnRedirects() throws Exception {
        HttpResponse<String> login = get("login", null);
        HttpResponse<String> api = get("api/json", GOOD_JWT);
        HttpResponse<String> redirect = post("quietDown", GOOD_JWT, HttpRequest.BodyPublishers.noBody());

        assertThat(login.statusCode()).isEqualTo(200);
        assertThat(login.headers().firstValue("X-Jenkins")).contains("2.555.2");
        assertThat(login.headers().firstValue("X-Hudson")).contains("1.395");
        assertThat(login.headers().firstValue("X-Jenkins-Session")).contains(jenkins.sessionHash());
        assertThat(api.headers().firstValue("X-Jenkins")).contains("2.555.2");
        assertThat(api.headers().firstValue("X-Jenkins-Session")).contains(jenkins.sessionHash());
        assertThat(api.headers().firstValue("X-Hudson")).isEmpty();
        assertThat(api.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
        assertThat(redirect.statusCode()).isEqualTo(302);
        assertThat(redirect.headers().firstValue("X-Jenkins")).isEmpty();
    }

    @Test
    void answers503OnEveryPathWhileBooting() throws Exception {
        jenkins.booting();

        assertThat(get("login", null).statusCode()).isEqualTo(503);
        assertThat(get("api/json", GOOD_JWT).statusCode()).isEqualTo(503);
        assertThat(get("login", null).body()).contains("Jenkins is getting ready to work");

        jenkins.ready();
        assertThat(get("login", null).statusCode()).isEqualTo(200);
    }

    @Test
    void bootFailureAnswers503WithTheMessage() throws Exception {
        jenkins.bootFailed("No configurator for the following root elements: <invalid>");

        HttpResponse<String> response = get("computer/api/json", GOOD_JWT);

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.body()).contains("No configurator for the following root elements: &lt;invalid&gt;");
    }

    @Test
    void deniesAnonymousApiAccessWith403AuthenticationRequired() throws Exception {
        HttpResponse<String> response = get("api/json?depth=1", null);

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.body()).contains("Authentication required").contains("/login?from=%2Fapi%2Fjson%3Fdepth%3D1");
        assertThat(response.headers().firstValue("X-You-Are-Authenticated-As")).contains("anonymous");
        assertThat(response.headers().firstValue("X-Required-Permission")).contains("hudson.model.Hudson.Read");
        assertThat(response.headers().firstValue("X-Jenkins")).contains("2.555.2");
    }

    @Test
    void answers401ToARefusedBearerBeforeCsrfIsConsidered() throws Exception {
        HttpResponse<String> read = get("api/json", FORGED_JWT);
        HttpResponse<String> write = post("quietDown", FORGED_JWT, HttpRequest.BodyPublishers.noBody());

        assertThat(read.statusCode()).isEqualTo(401);
        assertThat(read.headers().firstValue("WWW-Authenticate")).contains("Bearer realm=\"Jenkins\"");
        assertThat(write.statusCode()).isEqualTo(401);
        assertThat(jenkins.quietingDown()).isFalse();
    }

    // A secured Jenkins (the only kind Varroa renders): CrumbFilter refuses an anonymous POST with 403 before any
    // action runs, and anonymous cannot fetch a crumb, since /crumbIssuer needs Overall/Read (Jenkins#getTarget).
    @Test
    void refusesEveryAnonymousPostAndChangesNothing() throws Exception {
        for (String path : List.of("quietDown", "cancelQuietDown", "configuration-as-code/reload",
                "manage/configuration-as-code/reload", "configuration-as-code/apply")) {
            HttpResponse<String> response = post(path, null, HttpRequest.BodyPublishers.ofString("jenkins: {}\n"));
            assertThat(response.statusCode()).as(path).isEqualTo(403);
        }
        assertThat(get("crumbIssuer/api/json", null).statusCode()).isEqualTo(403);
        assertThat(jenkins.quietingDown()).isFalse();
        assertThat(jenkins.appliedConfigurations()).isEmpty();
    }

    @Test
    void refusesEveryBearerUntilATestPlugsInAVerifier() throws Exception {
        try (JenkinsFixture fresh = JenkinsFixture.start()) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(fresh.url().resolve("api/json"))
                    .header("Authorization", "Bearer " + GOOD_JWT).GET().build(), HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(401);
            assertThat(response.headers().firstValue("WWW-Authenticate")).contains("Bearer realm=\"Jenkins\"");
        }
    }

    @Test
    void exportsJenkinsStateToAVerifiedBearer() throws Exception {
        JsonNode api = json(get("api/json", GOOD_JWT));

        assertThat(api.get("_class").asText()).isEqualTo("hudson.model.Hudson");
        assertThat(api.get("quietingDown").asBoolean()).isFalse();
        assertThat(api.get("mode").asText()).isEqualTo("NORMAL");
        assertThat(api.get("useCrumbs").asBoolean()).isTrue();
        assertThat(api.get("url").asText()).isEqualTo(jenkins.url().toString());
    }

    @Test
    void refusesPostWithoutCrumbWhenTheBearerExclusionIsOff() throws Exception {
        jenkins.csrfExclusionForVerifiedBearer(false);

        HttpResponse<String> response = post("quietDown", GOOD_JWT, HttpRequest.BodyPublishers.noBody());

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.body()).contains("No valid crumb was included in the request");
        assertThat(jenkins.quietingDown()).isFalse();
    }

    @Test
    void acceptsTheIssuedCrumbOnlyTogetherWithItsSessionCookie() throws Exception {
        jenkins.csrfExclusionForVerifiedBearer(false);
        HttpClient withCookies = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        HttpResponse<String> issued = withCookies.send(request("crumbIssuer/api/json", GOOD_JWT).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode crumb = json(issued);
        HttpRequest quietDown = request("quietDown", GOOD_JWT)
                .header(crumb.get("crumbRequestField").asText(), crumb.get("crumb").asText())
                .POST(HttpRequest.BodyPublishers.noBody()).build();

        HttpResponse<String> withoutSession = http.send(quietDown, HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> withSession = withCookies.send(quietDown, HttpResponse.BodyHandlers.ofString());

        assertThat(crumb.get("_class").asText()).isEqualTo("hudson.security.csrf.DefaultCrumbIssuer");
        assertThat(crumb.get("crumbRequestField").asText()).isEqualTo("Jenkins-Crumb");
        assertThat(issued.headers().firstValue("Set-Cookie")).hasValueSatisfying(cookie -> assertThat(cookie).startsWith("JSESSIONID."));
        assertThat(withoutSession.statusCode()).isEqualTo(403);
        assertThat(withSession.statusCode()).isEqualTo(302);
        assertThat(jenkins.quietingDown()).isTrue();
    }

    @Test
    void togglesQuietDownAndRedirectsToTheRoot() throws Exception {
        HttpResponse<String> quiet = post("quietDown?message=draining", GOOD_JWT, HttpRequest.BodyPublishers.noBody());
        JsonNode whileQuiet = json(get("api/json", GOOD_JWT));
        HttpResponse<String> cancel = post("cancelQuietDown", GOOD_JWT, HttpRequest.BodyPublishers.noBody());
        JsonNode afterCancel = json(get("api/json", GOOD_JWT));

        assertThat(quiet.statusCode()).isEqualTo(302);
        assertThat(quiet.headers().firstValue("Location")).contains(jenkins.url().toString());
        assertThat(whileQuiet.get("quietingDown").asBoolean()).isTrue();
        assertThat(whileQuiet.get("quietDownReason").asText()).isEqualTo("draining");
        assertThat(cancel.statusCode()).isEqualTo(302);
        assertThat(afterCancel.get("quietingDown").asBoolean()).isFalse();
        assertThat(afterCancel.get("quietDownReason").isNull()).isTrue();
    }

    @Test
    void answers405ToGetOnARequirePostRoute() throws Exception {
        HttpResponse<String> response = get("quietDown", GOOD_JWT);

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Allow")).contains("POST");
        assertThat(jenkins.quietingDown()).isFalse();
    }

    @Test
    void blockingQuietDownAnswersOnceTheLastBuildFinishes() throws Exception {
        RunningBuild pipeline = jenkins.startBuild("pipeline", true);

        CompletableFuture<HttpResponse<String>> quiet = http.sendAsync(request("quietDown?block=true", GOOD_JWT)
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        awaitTrue(jenkins::quietingDown);

        assertThat(quiet).isNotDone();
        pipeline.finish();
        assertThat(quiet.get().statusCode()).isEqualTo(302);
    }

    @Test
    void blockingQuietDownGivesUpAfterItsTimeout() throws Exception {
        jenkins.startBuild("pipeline", true);
        long started = System.nanoTime();

        HttpResponse<String> response = post("quietDown?block=true&timeout=200", GOOD_JWT, HttpRequest.BodyPublishers.noBody());

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
    }

    @Test
    void busyExecutorsLeavesOutOneOffExecutors() throws Exception {
        RunningBuild pipeline = jenkins.startBuild("pipeline", true);
        RunningBuild freestyle = jenkins.startBuild("freestyle", false);

        JsonNode computers = json(get("computer/api/json?depth=1", GOOD_JWT));
        JsonNode builtIn = computers.get("computer").get(0);
        JsonNode oneOff = builtIn.get("oneOffExecutors").get(0);

        assertThat(computers.get("busyExecutors").asInt()).isEqualTo(1);
        assertThat(computers.get("totalExecutors").asInt()).isEqualTo(JenkinsFixture.BUILT_IN_NODE_EXECUTORS);
        assertThat(builtIn.get("idle").asBoolean()).isFalse();
        assertThat(oneOff.get("idle").asBoolean()).isFalse();
        assertThat(oneOff.get("currentExecutable").get("_class").asText()).isEqualTo("org.jenkinsci.plugins.workflow.job.WorkflowRun");
        assertThat(oneOff.get("currentExecutable").get("url").asText()).isEqualTo(pipeline.url());
        assertThat(oneOff.get("currentExecutable").has("fullDisplayName")).isFalse();
        assertThat(builtIn.get("executors").get(0).get("currentExecutable").get("url").asText()).isEqualTo(freestyle.url());
        assertThat(builtIn.get("executors").get(1).get("currentExecutable").isNull()).isTrue();

        pipeline.finish();
        freestyle.finish();
        JsonNode idle = json(get("computer/api/json?depth=1", GOOD_JWT));
        assertThat(idle.get("busyExecutors").asInt()).isZero();
        assertThat(idle.get("computer").get(0).get("oneOffExecutors")).isEmpty();
        assertThat(idle.get("computer").get(0).get("idle").asBoolean()).isTrue();
    }

    @Test
    void prunesExecutorsByDepthAndTreeAsStaplerDoes() throws Exception {
        jenkins.startBuild("pipeline", true);

        JsonNode shallow = json(get("computer/api/json", GOOD_JWT));
        JsonNode tree = json(get("computer/api/json?tree=busyExecutors,computer[oneOffExecutors[idle,currentExecutable[fullDisplayName]]]", GOOD_JWT));

        assertThat(shallow.get("computer").get(0).get("executors").get(0).size()).isZero();
        assertThat(shallow.get("computer").get(0).get("oneOffExecutors").get(0).size()).isZero();
        assertThat(tree.get("busyExecutors").asInt()).isZero();
        assertThat(tree.has("totalExecutors")).isFalse();
        JsonNode oneOff = tree.get("computer").get(0).get("oneOffExecutors").get(0);
        assertThat(oneOff.get("idle").asBoolean()).isFalse();
        assertThat(oneOff.get("currentExecutable").get("fullDisplayName").asText()).isEqualTo("pipeline #1");
    }

    @Test
    void reloadReadsEveryYamlFileUnderTheCascDirectory(@TempDir Path casc) throws Exception {
        Files.writeString(casc.resolve("a.yaml"), "jenkins:\n  systemMessage: one\n");
        Files.createDirectories(casc.resolve("b"));
        Files.writeString(casc.resolve("b/c.yml"), "unclassified: {}\n");
        Files.writeString(casc.resolve(".hidden.yaml"), "ignored: true\n");
        Files.writeString(casc.resolve("notes.txt"), "not yaml\n");
        jenkins.cascDirectory(casc);

        HttpResponse<String> response = post("configuration-as-code/reload", GOOD_JWT, HttpRequest.BodyPublishers.noBody());

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(response.headers().firstValue("Location")).contains(jenkins.url() + "configuration-as-code/");
        AppliedConfiguration applied = jenkins.lastAppliedConfiguration().orElseThrow();
        assertThat(applied.trigger()).isEqualTo("/configuration-as-code/reload");
        assertThat(applied.sources()).containsExactly(
                new ConfigurationSource(casc.resolve("a.yaml").toAbsolutePath().toString(), "jenkins:\n  systemMessage: one\n"),
                new ConfigurationSource(casc.resolve("b/c.yml").toAbsolutePath().toString(), "unclassified: {}\n"));
    }

    @Test
    void rejectedReloadAnswers200WithTheErrorPage(@TempDir Path casc) throws Exception {
        jenkins.cascDirectory(casc);
        jenkins.rejectConfiguration("Invalid configuration elements for type: class jenkins.model.Jenkins : systemMessage2");

        HttpResponse<String> response = post("manage/configuration-as-code/reload", GOOD_JWT, HttpRequest.BodyPublishers.noBody());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("Error loading configuration").contains("systemMessage2");
        assertThat(jenkins.lastAppliedConfiguration()).isEmpty();
    }

    @Test
    void reportsAMissingCascDirectoryAsAConfigurationError(@TempDir Path parent) throws Exception {
        jenkins.cascDirectory(parent.resolve("absent"));

        HttpResponse<String> response = post("configuration-as-code/reload", GOOD_JWT, HttpRequest.BodyPublishers.noBody());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("isn&#39;t a valid path.");
    }

    @Test
    void slowReloadHoldsTheAnswerForTheConfiguredDelay() throws Exception {
        jenkins.configurationDelay(Duration.ofMillis(300));
        long started = System.nanoTime();

        HttpResponse<String> response = post("configuration-as-code/reload", GOOD_JWT, HttpRequest.BodyPublishers.noBody());

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
    }

    @Test
    void tokenReloadAnswers404WhileNoTokenIsSetAndItsCrumbExclusionIsOff() throws Exception {
        HttpResponse<String> withBearer = post("reload-configuration-as-code/?casc-reload-token=any", GOOD_JWT,
                HttpRequest.BodyPublishers.noBody());
        HttpResponse<String> anonymous = post("reload-configuration-as-code/?casc-reload-token=any", null,
                HttpRequest.BodyPublishers.noBody());

        assertThat(withBearer.statusCode()).isEqualTo(404);
        assertThat(anonymous.statusCode()).isEqualTo(403);
    }

    @Test
    void tokenReloadChecksTheTokenAndNeedsNoCrumbOrLogin(@TempDir Path casc) throws Exception {
        Files.writeString(casc.resolve("jenkins.yaml"), "jenkins: {}\n");
        jenkins.cascDirectory(casc);
        jenkins.cascReloadToken("s3cret");

        HttpResponse<String> wrong = post("reload-configuration-as-code/?casc-reload-token=guess", null, HttpRequest.BodyPublishers.noBody());
        HttpResponse<String> noSlash = post("reload-configuration-as-code?casc-reload-token=s3cret", null, HttpRequest.BodyPublishers.noBody());
        HttpResponse<String> right = post("reload-configuration-as-code/?casc-reload-token=s3cret", null, HttpRequest.BodyPublishers.noBody());

        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(noSlash.statusCode()).isEqualTo(403);
        assertThat(noSlash.body()).contains("No valid crumb was included in the request");
        assertThat(right.statusCode()).isEqualTo(200);
        assertThat(right.body()).isEmpty();
        assertThat(jenkins.lastAppliedConfiguration().orElseThrow().trigger()).isEqualTo("/reload-configuration-as-code/");
    }

    @Test
    void tokenReloadAnswers500WithJsonWhenConfigurationFails() throws Exception {
        jenkins.cascReloadToken("s3cret");
        jenkins.rejectConfiguration("No configurator for the following root elements: invalid");

        HttpResponse<String> response = post("reload-configuration-as-code/?casc-reload-token=s3cret", null,
                HttpRequest.BodyPublishers.noBody());

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        JsonNode body = json(response);
        assertThat(body.get("status").asText()).isEqualTo("error");
        assertThat(body.get("message").asText())
                .isEqualTo("Failed to reload configuration: No configurator for the following root elements: invalid");
    }

    @Test
    void checkAnswersAnIssueListAndApplyAddsThePostedYaml(@TempDir Path casc) throws Exception {
        Files.writeString(casc.resolve("base.yaml"), "jenkins: {}\n");
        jenkins.cascDirectory(casc);

        HttpResponse<String> valid = post("configuration-as-code/check", GOOD_JWT, HttpRequest.BodyPublishers.ofString("jenkins:\n  numExecutors: 0\n"));
        HttpResponse<String> broken = post("configuration-as-code/check", GOOD_JWT, HttpRequest.BodyPublishers.ofString("jenkins: [unclosed\n"));
        HttpResponse<String> applied = post("configuration-as-code/apply", GOOD_JWT, HttpRequest.BodyPublishers.ofString("jenkins:\n  numExecutors: 0\n"));
        jenkins.rejectConfiguration("refused");
        HttpResponse<String> refused = post("configuration-as-code/apply", GOOD_JWT, HttpRequest.BodyPublishers.ofString("jenkins: {}\n"));

        assertThat(valid.statusCode()).isEqualTo(200);
        assertThat(json(valid)).isEmpty();
        assertThat(broken.statusCode()).isEqualTo(400);
        assertThat(json(broken).get(0).get("line").asInt()).isEqualTo(-1);
        assertThat(applied.statusCode()).isEqualTo(200);
        assertThat(jenkins.lastAppliedConfiguration().orElseThrow().sources()).extracting(ConfigurationSource::origin)
                .containsExactly(casc.resolve("base.yaml").toAbsolutePath().toString(), ConfigurationSource.REQUEST_BODY);
        assertThat(refused.statusCode()).isEqualTo(500);
    }

    @Test
    void recordsEveryRequestWithItsCaller() throws Exception {
        get("login", null);
        get("api/json", FORGED_JWT);
        post("configuration-as-code/reload", GOOD_JWT, HttpRequest.BodyPublishers.noBody());

        assertThat(jenkins.requests()).containsExactly(
                new RecordedRequest("GET", "/login", Caller.ANONYMOUS, 200),
                new RecordedRequest("GET", "/api/json", Caller.REJECTED_CREDENTIALS, 401),
                new RecordedRequest("POST", "/configuration-as-code/reload", Caller.VERIFIED_BEARER, 302));
    }

    private HttpResponse<String> get(String path, String bearer) throws IOException, InterruptedException {
        return http.send(request(path, bearer).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String bearer, HttpRequest.BodyPublisher body) throws IOException, InterruptedException {
        return http.send(request(path, bearer).POST(body).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder request(String path, String bearer) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(jenkins.url() + path)).timeout(Duration.ofSeconds(10));
        return bearer == null ? builder : builder.header("Authorization", "Bearer " + bearer);
    }

    private static JsonNode json(HttpResponse<String> response) throws IOException {
        return JSON.readTree(response.body());
    }

    // Waits on fixture state the request thread sets, not on time; the deadline only bounds a broken fixture.
    private static void awaitTrue(BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within 10 s").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }
}
