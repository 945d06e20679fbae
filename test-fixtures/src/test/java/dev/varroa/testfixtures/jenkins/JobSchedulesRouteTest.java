package dev.varroa.testfixtures.jenkins;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 11 (mite schedules poll): the Varroa plugin's GET /varroa/schedules as the fixture answers it. */
class JobSchedulesRouteTest {

    private static final String GOOD_JWT = "good.jwt.signature";

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

    private HttpResponse<String> get(String bearer) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(jenkins.url().resolve("varroa/schedules")).GET();
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void answersNotFoundUntilAnInventoryIsSetThenServesIt() throws Exception {
        assertThat(get(GOOD_JWT).statusCode()).isEqualTo(404);

        String inventory = "{\"jobs\":[{\"job\":\"team/app\",\"timerSpecs\":[\"H 2 * * *\"]}]}";
        jenkins.jobScheduleInventory(inventory);
        HttpResponse<String> served = get(GOOD_JWT);

        assertThat(served.statusCode()).isEqualTo(200);
        assertThat(served.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).contains("json"));
        assertThat(served.body()).isEqualTo(inventory);
        jenkins.jobScheduleInventory(null);
        assertThat(get(GOOD_JWT).statusCode()).isEqualTo(404);
    }

    @Test
    void keepsTheInventoryFromAnonymousCallers() throws Exception {
        jenkins.jobScheduleInventory("{\"jobs\":[]}");

        assertThat(get(null).statusCode()).isEqualTo(403);
        assertThat(get("forged").statusCode()).isEqualTo(401);
    }
}
