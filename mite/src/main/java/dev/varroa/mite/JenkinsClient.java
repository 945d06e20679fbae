package dev.varroa.mite;

import dev.varroa.protocol.mite.v1.InstalledPlugin;
import dev.varroa.protocol.mite.v1.ObservedState;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Jenkins over localhost, with the Jenkins token as bearer when the mite holds one. Knows the few
 * endpoints the mite needs and how Jenkins answers them (see the Jenkins contract fixture).
 */
final class JenkinsClient {

  /** Jenkins runs in the same pod: a connect that takes longer means it is not listening. */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
  /** Read requests (state polling, drain polling); a busy Jenkins still answers these quickly. */
  static final Duration READ_TIMEOUT = Duration.ofSeconds(10);

  static final String ROOT_API = "api/json?tree=quietingDown";
  /**
   * Both executor lists: Pipeline runs sit on one-off executors, which busyExecutors does not count. The display
   * name of an agent's computer is its node name (Computer#getDisplayName); Computer#getName is not exported.
   */
  static final String COMPUTER_API =
      "computer/api/json?tree=computer[displayName,executors[idle],oneOffExecutors[idle]]";
  /** Queue#getItems: waiting, blocked and buildable items alike (left items are not in it). */
  static final String QUEUE_API = "queue/api/json?tree=items[id]";
  static final String PLUGINS_API = "pluginManager/api/json?tree=plugins[shortName,version]";
  /** The Varroa plugin's last user request; a plugin without the route answers 404. */
  static final String ACTIVITY_PATH = "varroa/activity";
  /** The {@code _class} Stapler writes for the built-in node's computer (Jenkins#createComputer). */
  static final String BUILT_IN_COMPUTER_CLASS = "hudson.model.Hudson$MasterComputer";
  static final String CASC_RELOAD = "configuration-as-code/reload";
  static final String QUIET_DOWN = "quietDown";
  static final String CANCEL_QUIET_DOWN = "cancelQuietDown";
  static final String SAFE_RESTART = "safeRestart";

  private final URI base;
  private final JenkinsBearer bearer;
  private final HttpClient http;
  private final JenkinsUptime uptime;

  JenkinsClient(URI base, JenkinsBearer bearer) {
    this(base, bearer, Clock.systemUTC());
  }

  /** The clock stamps jenkins_up_since in {@link #observe()}. */
  JenkinsClient(URI base, JenkinsBearer bearer, Clock clock) {
    this.base = base;
    this.bearer = bearer;
    this.uptime = new JenkinsUptime(clock);
    this.http = HttpClient.newBuilder()
        .connectTimeout(CONNECT_TIMEOUT)
        .followRedirects(HttpClient.Redirect.NEVER)
        .version(HttpClient.Version.HTTP_1_1)
        .build();
  }

  URI base() {
    return base;
  }

  /** True when requests carry the mite's bearer token. */
  boolean holdsToken() {
    return bearer.jwt().isPresent();
  }

  JenkinsAnswer get(String relative) throws IOException, InterruptedException {
    return send(request(relative, READ_TIMEOUT).GET().build(), READ_TIMEOUT);
  }

  /** A POST without body; the timeout bounds the whole exchange (a command's deadline). */
  JenkinsAnswer post(String relative, Duration timeout) throws IOException, InterruptedException {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new HttpTimeoutException("no time left for POST " + relative);
    }
    return send(request(relative, timeout).POST(HttpRequest.BodyPublishers.noBody()).build(), timeout);
  }

  /** A POST of form fields (application/x-www-form-urlencoded, UTF-8), in order; the timeout bounds the whole exchange. */
  JenkinsAnswer postForm(String relative, List<Map.Entry<String, String>> fields, Duration timeout)
      throws IOException, InterruptedException {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new HttpTimeoutException("no time left for POST " + relative);
    }
    StringBuilder form = new StringBuilder();
    for (Map.Entry<String, String> field : fields) {
      form.append(form.length() == 0 ? "" : "&").append(URLEncoder.encode(field.getKey(), StandardCharsets.UTF_8))
          .append('=').append(URLEncoder.encode(field.getValue(), StandardCharsets.UTF_8));
    }
    return send(request(relative, timeout)
        .header("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")
        .POST(HttpRequest.BodyPublishers.ofString(form.toString(), StandardCharsets.UTF_8)).build(), timeout);
  }

  /**
   * A request as given, WITHOUT the mite's bearer token: a replayed webhook delivery authenticates to Jenkins as
   * its sender did. {@code fromRoot} starts with "/" and is taken relative to Jenkins' root URL (which may carry
   * a context path). The timeout bounds the whole exchange.
   */
  JenkinsAnswer sendAsSender(String method, String fromRoot, List<Map.Entry<String, String>> headers, byte[] body,
      Duration timeout) throws IOException, InterruptedException {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new HttpTimeoutException("no time left for " + method + " " + fromRoot);
    }
    String root = base.toString();
    URI target = URI.create((root.endsWith("/") ? root.substring(0, root.length() - 1) : root) + fromRoot);
    HttpRequest.Builder request = HttpRequest.newBuilder(target).timeout(timeout)
        .method(method, body.length == 0 ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    headers.forEach(header -> request.header(header.getKey(), header.getValue()));
    return send(request.build(), timeout);
  }

  /**
   * What the mite sees of Jenkins now; never throws: an unreachable Jenkins is an observation too. Each call also
   * tells {@link JenkinsUptime} whether Jenkins served (any answer but 503), which stamps jenkins_up_since.
   */
  ObservedState observe() throws InterruptedException {
    ObservedState.Builder state = ObservedState.newBuilder();
    JenkinsAnswer root;
    try {
      root = get(ROOT_API);
    } catch (IOException e) {
      return ObservedState.newBuilder().setJenkinsReachable(false)
          .setJenkinsUpSinceEpochMillis(uptime.notServing()).build();
    }
    // 503: booting (HudsonIsLoading), restarting (HudsonIsRestarting) or failed to boot; anything else is a Jenkins
    // that serves requests, even a 401/403 to the mite
    state.setJenkinsUpSinceEpochMillis(root.status() == 503 ? uptime.notServing() : uptime.serving(root.jenkinsSession()));
    try {
      state.setJenkinsReachable(true);
      root.jenkinsVersion().ifPresent(state::setJenkinsVersion);
      if (root.status() == 503) {
        state.setBootError(JenkinsErrorText.of(root));
        return state.build();
      }
      if (root.ok()) {
        state.setQuietingDown(Boolean.TRUE.equals(JenkinsJson.field(JenkinsJson.parse(root.body()), "quietingDown")));
      }
      JenkinsAnswer computers = get(COMPUTER_API);
      if (computers.ok()) {
        state.setRunningBuilds(busyExecutors(computers.body()));
        state.addAllAgentNodes(agentNodes(computers.body())).setAgentNodesObserved(true);
      }
      JenkinsAnswer queue = get(QUEUE_API);
      if (queue.ok()) {
        state.setQueuedBuilds(queuedItems(queue.body()));
      }
      JenkinsAnswer plugins = get(PLUGINS_API);
      if (plugins.ok()) {
        state.addAllPlugins(plugins(plugins.body()));
      }
      // 404: a plugin without the route; any other failure leaves it unknown (0) as well
      JenkinsAnswer activity = get(ACTIVITY_PATH);
      if (activity.ok()) {
        state.setLastUserRequestEpochMillis(lastUserRequest(activity.body()));
      }
    } catch (IOException e) {
      // reachable but a later answer failed or did not parse: report what we have
    }
    return state.build();
  }

  /** Builds running now, one-off executors included. */
  int runningBuilds() throws IOException, InterruptedException {
    JenkinsAnswer answer = get(COMPUTER_API);
    if (!answer.ok()) {
      throw new JenkinsRefused(answer);
    }
    return busyExecutors(answer.body());
  }

  static int busyExecutors(String computerApiJson) throws IOException {
    int busy = 0;
    for (Object computer : JenkinsJson.elements(JenkinsJson.field(JenkinsJson.parse(computerApiJson), "computer"))) {
      for (String list : List.of("executors", "oneOffExecutors")) {
        for (Object executor : JenkinsJson.elements(JenkinsJson.field(computer, list))) {
          if (Boolean.FALSE.equals(JenkinsJson.field(executor, "idle"))) {
            busy++;
          }
        }
      }
    }
    return busy;
  }

  /** Names of the agents' computers, the built-in node left out, sorted so that two polls compare equal. */
  static List<String> agentNodes(String computerApiJson) throws IOException {
    List<String> names = new ArrayList<>();
    for (Object computer : JenkinsJson.elements(JenkinsJson.field(JenkinsJson.parse(computerApiJson), "computer"))) {
      String name = JenkinsJson.text(JenkinsJson.field(computer, "displayName"));
      if (!BUILT_IN_COMPUTER_CLASS.equals(JenkinsJson.field(computer, "_class")) && !name.isEmpty()) {
        names.add(name);
      }
    }
    names.sort(Comparator.naturalOrder());
    return names;
  }

  static int queuedItems(String queueApiJson) throws IOException {
    return JenkinsJson.elements(JenkinsJson.field(JenkinsJson.parse(queueApiJson), "items")).size();
  }

  /** {@code {"lastUserRequestEpochMillis": N}}; 0 when absent or not a number. */
  static long lastUserRequest(String activityJson) throws IOException {
    Object millis = JenkinsJson.field(JenkinsJson.parse(activityJson), "lastUserRequestEpochMillis");
    return millis instanceof Number n ? Math.max(0, n.longValue()) : 0;
  }

  static List<InstalledPlugin> plugins(String pluginManagerJson) throws IOException {
    List<InstalledPlugin> plugins = new ArrayList<>();
    for (Object plugin : JenkinsJson.elements(JenkinsJson.field(JenkinsJson.parse(pluginManagerJson), "plugins"))) {
      plugins.add(InstalledPlugin.newBuilder()
          .setId(JenkinsJson.text(JenkinsJson.field(plugin, "shortName")))
          .setVersion(JenkinsJson.text(JenkinsJson.field(plugin, "version")))
          .build());
    }
    // sorted, so that two polls of the same Jenkins compare equal
    plugins.sort(Comparator.comparing(InstalledPlugin::getId));
    return plugins;
  }

  private HttpRequest.Builder request(String relative, Duration timeout) {
    HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(relative)).timeout(timeout);
    bearer.jwt().ifPresent(jwt -> request.header("Authorization", "Bearer " + jwt));
    return request;
  }

  private JenkinsAnswer send(HttpRequest request, Duration timeout) throws IOException, InterruptedException {
    CompletableFuture<HttpResponse<String>> pending = http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
    HttpResponse<String> response;
    try {
      // the request timeout stops at the headers; this bounds the body too
      response = pending.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      pending.cancel(true);
      throw new HttpTimeoutException(request.method() + " " + request.uri().getPath() + " took longer than " + timeout);
    } catch (InterruptedException e) {
      pending.cancel(true);
      throw e;
    } catch (CancellationException e) {
      throw new IOException(request.method() + " " + request.uri().getPath() + " was cancelled", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw new IOException(request.method() + " " + request.uri().getPath() + " failed", e.getCause());
    }
    return new JenkinsAnswer(response.statusCode(),
        response.headers().firstValue("Content-Type").orElse(""),
        response.body() == null ? "" : response.body(),
        response.headers().firstValue("X-Jenkins"), response.headers());
  }

  /** True when the failure means nothing listens at Jenkins' address (not started yet, or gone). */
  static boolean notListening(IOException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConnectException) {
        return true;
      }
    }
    return false;
  }

  /** Jenkins answered, but not with what was asked for. */
  static final class JenkinsRefused extends IOException {
    private final transient JenkinsAnswer answer;

    JenkinsRefused(JenkinsAnswer answer) {
      super("Jenkins answered HTTP " + answer.status());
      this.answer = answer;
    }

    JenkinsAnswer answer() {
      return answer;
    }
  }
}
