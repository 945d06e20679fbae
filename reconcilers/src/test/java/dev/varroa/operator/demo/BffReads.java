package dev.varroa.operator.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.testfixtures.oidc.BrowserLogin;
import dev.varroa.testfixtures.oidc.OidcProvider;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a person reads through the BFF once the demo's builds are recorded, logged in through the OpenID provider as
 * the demo user: every Controller, each run with its whole console log, the activity, and the dashboard's page. The
 * played demo and the demo on the real node check the same reads.
 */
public final class BffReads {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A run the BFF should serve: its id and its console log, whole (log) or by its length when only that is known. */
  public record ExpectedRun(String runId, long logLength, byte[] log) {
    static ExpectedRun played(PlayedBuild.Played build) {
      return new ExpectedRun(build.runId(), build.log().length, build.log());
    }
  }

  private final String bffUrl;
  private final String token;

  private BffReads(String bffUrl, String token) {
    this.bffUrl = bffUrl;
    this.token = token;
  }

  /** Logs in as a browser would (the web client, redirected to callback) and reads as that user. */
  public static BffReads loggedIn(String bffUrl, OidcProvider provider, String callback, String user, String password)
      throws IOException, InterruptedException {
    return new BffReads(bffUrl, BrowserLogin.login(provider, callback, user, password).idToken());
  }

  /** Null when every read holds, else what is missing. */
  public String check(List<String> controllers, List<ExpectedRun> runs) throws IOException, InterruptedException {
    JsonNode listed = JSON.readTree(get("/controllers").body());
    List<String> seen = new ArrayList<>();
    listed.path("items").forEach(row -> seen.add(row.path("namespace").asText() + "/" + row.path("name").asText()));
    if (!seen.containsAll(controllers)) {
      return "GET /controllers lists " + seen + ", not every example Controller " + controllers;
    }
    for (ExpectedRun expected : runs) {
      HttpResponse<String> run = get("/runs/" + expected.runId());
      if (run.statusCode() != 200) {
        return "GET /runs/" + expected.runId() + " answered " + run.statusCode() + ": " + run.body();
      }
      HttpResponse<byte[]> log = HTTP.send(request("/runs/" + expected.runId() + "/log?length=1048576"),
          HttpResponse.BodyHandlers.ofByteArray());
      boolean whole = log.body().length == expected.logLength()
          && (expected.log() == null || Arrays.equals(log.body(), expected.log()));
      if (log.statusCode() != 200 || !whole) {
        return "GET /runs/" + expected.runId() + "/log answered " + log.statusCode() + " with " + log.body().length
            + " bytes, not the played " + expected.logLength();
      }
    }
    if (JSON.readTree(get("/activity").body()).path("items").isEmpty()) {
      return "GET /activity holds no event";
    }
    HttpResponse<String> page = HTTP.send(HttpRequest.newBuilder(URI.create(bffUrl + "/ui/controllers"))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    if (page.statusCode() != 200 || !page.body().contains("<script")) {
      return "GET /ui/controllers answered " + page.statusCode() + " without the dashboard's page: was the web client "
          + "built into the BFF (dashboard/web, npm run build)?";
    }
    return null;
  }

  /** Null when GET /clusters lists exactly these clusters (the core first), each healthy; else what differs. */
  public String checkClusters(List<String> expected) throws IOException, InterruptedException {
    HttpResponse<String> answer = get("/clusters");
    if (answer.statusCode() != 200) {
      return "GET /clusters answered " + answer.statusCode() + ": " + answer.body();
    }
    List<String> listed = new ArrayList<>();
    List<String> unhealthy = new ArrayList<>();
    JSON.readTree(answer.body()).path("items").forEach(cluster -> {
      listed.add(cluster.path("name").asText());
      if (!cluster.path("healthy").asBoolean()) {
        unhealthy.add(cluster.path("name").asText());
      }
    });
    if (!listed.equals(expected)) {
      return "GET /clusters lists " + listed + ", not " + expected;
    }
    return unhealthy.isEmpty() ? null : "GET /clusters names " + unhealthy + " unhealthy";
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(request(path), HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest request(String path) {
    return HttpRequest.newBuilder(URI.create(bffUrl + path)).header("Authorization", "Bearer " + token)
        .timeout(Duration.ofSeconds(10)).build();
  }
}
