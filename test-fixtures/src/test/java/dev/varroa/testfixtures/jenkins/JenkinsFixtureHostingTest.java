package dev.varroa.testfixtures.jenkins;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What the Jenkins stand-in image needs of the fixture: any address, its own routes and header, the boot's apply. */
class JenkinsFixtureHostingTest {

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void listensOnEveryAddressAndNamesItselfOnLoopback() throws Exception {
        try (JenkinsFixture jenkins = JenkinsFixture.start("2.555.2", null, new InetSocketAddress("0.0.0.0", 0))) {
            HttpResponse<String> login = get(jenkins.url().resolve("/login"));

            assertThat(jenkins.url().getHost()).isEqualTo("127.0.0.1");
            assertThat(login.statusCode()).isEqualTo(200);
        }
    }

    @Test
    void servesItsOwnRoutesOutsideJenkinsPipelineAndAHeaderOnEveryAnswer() throws Exception {
        try (JenkinsFixture jenkins = JenkinsFixture.start()) {
            jenkins.headerOnEveryAnswer("X-Varroa-Stand-In", "jenkins-contract-fixture");
            jenkins.serve("/extra", exchange -> {
                byte[] body = "extra".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });

            HttpResponse<String> extra = get(jenkins.url().resolve("/extra/page"));
            HttpResponse<String> anonymousApi = get(jenkins.url().resolve("/api/json"));

            assertThat(extra.statusCode()).isEqualTo(200);
            assertThat(extra.body()).isEqualTo("extra");
            assertThat(extra.headers().firstValue("X-Varroa-Stand-In")).contains("jenkins-contract-fixture");
            assertThat(anonymousApi.statusCode()).isEqualTo(403);
            assertThat(anonymousApi.headers().firstValue("X-Varroa-Stand-In")).contains("jenkins-contract-fixture");
        }
    }

    @Test
    void appliesTheCascFolderAtBootAndTellsTheListener(@TempDir Path casc) throws Exception {
        Files.writeString(casc.resolve("jenkins.yaml"), "jenkins:\n  numExecutors: 0\n");
        try (JenkinsFixture jenkins = JenkinsFixture.start()) {
            List<AppliedConfiguration> heard = new ArrayList<>();
            jenkins.onConfigurationApplied(heard::add);
            jenkins.cascDirectory(casc);

            assertThat(jenkins.configureAtBoot()).isEmpty();
            assertThat(heard).singleElement().satisfies(applied -> {
                assertThat(applied.trigger()).isEqualTo(JenkinsFixture.BOOT_TRIGGER);
                assertThat(applied.sources()).extracting(ConfigurationSource::yaml).containsExactly("jenkins:\n  numExecutors: 0\n");
            });
            assertThat(get(jenkins.url().resolve("/login")).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void failsTheBootWhenTheCascPathIsMissing(@TempDir Path home) throws Exception {
        try (JenkinsFixture jenkins = JenkinsFixture.start()) {
            jenkins.cascDirectory(home.resolve("missing"));

            assertThat(jenkins.configureAtBoot()).hasValueSatisfying(message -> assertThat(message).contains("isn't a valid path"));
            assertThat(get(jenkins.url().resolve("/login")).statusCode()).isEqualTo(503);
        }
    }

    @Test
    void goesOnFromTheNextBuildNumberItIsGiven() {
        try (JenkinsFixture jenkins = JenkinsFixture.start()) {
            jenkins.nextBuildNumber("team/app", 7);

            RunningBuild build = jenkins.startBuild("team/app", true);

            assertThat(build.number()).isEqualTo(7);
            build.finish();
        }
    }

    private HttpResponse<String> get(URI uri) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
