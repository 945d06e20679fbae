package dev.varroa.testfixtures.jenkins;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** ParameterizedJobMixIn's build and buildWithParameters as the fixture answers them. */
class JobBuildRoutesTest {

    private static final String GOOD_JWT = "good.jwt.signature";
    private static final String FORM = "application/x-www-form-urlencoded";

    private final HttpClient http = HttpClient.newHttpClient();
    private JenkinsFixture jenkins;

    @BeforeEach
    void startJenkins() {
        jenkins = JenkinsFixture.start();
        jenkins.bearerTokenAccepted(GOOD_JWT::equals);
        jenkins.defineJob("team-a/build");
        jenkins.defineJob("team-a/deploy", List.of("TARGET", "DRY_RUN"));
    }

    @AfterEach
    void stopJenkins() {
        jenkins.close();
    }

    @Test
    void buildQueuesAnItemAndAnswers201WithItsAbsoluteQueueLocation() throws Exception {
        List<QueuedItem> heard = new CopyOnWriteArrayList<>();
        jenkins.onBuildRequested(heard::add);

        HttpResponse<String> answer = post("job/team-a/job/build/build", GOOD_JWT, "");

        assertThat(answer.statusCode()).isEqualTo(201);
        QueuedItem item = jenkins.requestedBuilds().get(0);
        assertThat(answer.headers().firstValue("Location")).contains(jenkins.url() + "queue/item/" + item.id() + "/");
        assertThat(item.jobName()).isEqualTo("team-a/build");
        assertThat(item.parameters()).isEmpty();
        assertThat(heard).containsExactly(item);
        JsonNode queue = new ObjectMapper().readTree(get("queue/api/json?tree=items%5Bid,params,task%5Burl%5D%5D", GOOD_JWT).body());
        assertThat(queue.at("/items/0/id").asLong()).isEqualTo(item.id());
        assertThat(queue.at("/items/0/task/url").asText()).isEqualTo(jenkins.url() + "job/team-a/job/build/");
    }

    @Test
    void buildWithParametersTakesTheDefinedParametersAndIgnoresOthers() throws Exception {
        HttpResponse<String> answer = post("job/team-a/job/deploy/buildWithParameters", GOOD_JWT,
                "TARGET=eu%20west&UNKNOWN=x");

        assertThat(answer.statusCode()).isEqualTo(201);
        QueuedItem item = jenkins.requestedBuilds().get(0);
        assertThat(item.parameters()).containsExactly(Map.entry("TARGET", "eu west"), Map.entry("DRY_RUN", ""));
        JsonNode queue = new ObjectMapper().readTree(get("queue/api/json?tree=items%5Bid,params,task%5Burl%5D%5D", GOOD_JWT).body());
        assertThat(queue.at("/items/0/params").asText()).isEqualTo("\nTARGET=eu west\nDRY_RUN=");
    }

    @Test
    void anIdenticalWaitingItemAnswers303WithItsLocation() throws Exception {
        HttpResponse<String> first = post("job/team-a/job/deploy/buildWithParameters", GOOD_JWT, "TARGET=eu");
        HttpResponse<String> second = post("job/team-a/job/deploy/buildWithParameters", GOOD_JWT, "TARGET=eu");
        HttpResponse<String> other = post("job/team-a/job/deploy/buildWithParameters", GOOD_JWT, "TARGET=us");

        assertThat(first.statusCode()).isEqualTo(201);
        assertThat(second.statusCode()).isEqualTo(303);
        assertThat(second.headers().firstValue("Location")).isEqualTo(first.headers().firstValue("Location"));
        assertThat(other.statusCode()).isEqualTo(201);
        assertThat(jenkins.requestedBuilds()).hasSize(2);
    }

    @Test
    void answersAsJenkinsWhenTheActionDoesNotFitTheJob() throws Exception {
        HttpResponse<String> parameterizedBuild = post("job/team-a/job/deploy/build", GOOD_JWT, "");
        HttpResponse<String> plainWithParameters = post("job/team-a/job/build/buildWithParameters", GOOD_JWT, "A=1");

        assertThat(parameterizedBuild.statusCode()).isEqualTo(400);
        assertThat(parameterizedBuild.body()).contains("Nothing is submitted");
        assertThat(plainWithParameters.statusCode()).isEqualTo(400);
        assertThat(plainWithParameters.body()).contains("team-a/build is not parameterized");
        assertThat(jenkins.requestedBuilds()).isEmpty();
    }

    @Test
    void answers404ForAJobNotDefinedAnd405ToAGet() throws Exception {
        HttpResponse<String> unknown = post("job/team-a/job/missing/build", GOOD_JWT, "");
        HttpResponse<String> notInFolder = post("job/build/build", GOOD_JWT, "");
        HttpResponse<String> getBuild = get("job/team-a/job/build/build", GOOD_JWT);
        HttpResponse<String> getWithParameters = get("job/team-a/job/deploy/buildWithParameters", GOOD_JWT);

        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(notInFolder.statusCode()).isEqualTo(404);
        assertThat(getBuild.statusCode()).isEqualTo(405);
        assertThat(getBuild.headers().firstValue("Allow")).contains("POST");
        assertThat(getBuild.body()).contains("You must use POST method to trigger builds");
        assertThat(getWithParameters.statusCode()).isEqualTo(405);
        assertThat(jenkins.requestedBuilds()).isEmpty();
    }

    @Test
    void refusesAnAnonymousBuildRequestAtTheCrumbCheck() throws Exception {
        HttpResponse<String> answer = post("job/team-a/job/build/build", null, "");

        assertThat(answer.statusCode()).isEqualTo(403);
        assertThat(answer.body()).contains("No valid crumb was included in the request");
        assertThat(jenkins.requestedBuilds()).isEmpty();
        assertThat(jenkins.deliveries()).as("a build request is no webhook delivery").isEmpty();
    }

    @Test
    void everyJobDefinedTakesAnyNameAndEveryPostedField() throws Exception {
        jenkins.everyJobDefined();

        HttpResponse<String> plain = post("job/x/job/y%20z/build", GOOD_JWT, "");
        HttpResponse<String> withParameters = post("job/x/job/y%20z/buildWithParameters", GOOD_JWT, "A=1&B=2");

        assertThat(plain.statusCode()).isEqualTo(201);
        assertThat(withParameters.statusCode()).isEqualTo(201);
        assertThat(jenkins.requestedBuilds()).extracting(QueuedItem::jobName).containsExactly("x/y z", "x/y z");
        assertThat(jenkins.requestedBuilds().get(1).parameters()).containsExactly(Map.entry("A", "1"), Map.entry("B", "2"));
    }

    @Test
    void refusesToDefineAJobWithAnEmptyOrDotSegment() {
        for (String bad : List.of("", "a//b", "a/./b", "../b", "a/")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> jenkins.defineJob(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("e.g. team-a/build");
        }
    }

    private HttpResponse<String> post(String path, String bearer, String form) throws Exception {
        return http.send(request(path, bearer).header("Content-Type", FORM)
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path, String bearer) throws Exception {
        return http.send(request(path, bearer).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder request(String path, String bearer) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(jenkins.url() + path)).timeout(Duration.ofSeconds(10));
        return bearer == null ? builder : builder.header("Authorization", "Bearer " + bearer);
    }
}
