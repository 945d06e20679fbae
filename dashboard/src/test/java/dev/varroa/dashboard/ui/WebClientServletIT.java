package dev.varroa.dashboard.ui;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The browser client's files on a real Jetty beside a catch-all "/*" servlet standing where the read API is: hashed
 * assets cached for good, every other /ui/ path answering index.html uncached with its CSP, no way out of ui/, and
 * the exact root sent to /ui/.
 */
class WebClientServletIT {

  private static final String INDEX = "<!doctype html><title>Varroa</title><script src=\"/ui/assets/index-abc123.js\"></script>";
  private static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

  private static Server jetty;
  private static String base;
  private static URLClassLoader loader;

  @BeforeAll
  static void start(@TempDir Path classpath) throws Exception {
    Path ui = Files.createDirectories(classpath.resolve("ui/assets"));
    Files.writeString(classpath.resolve("ui/index.html"), INDEX);
    Files.writeString(ui.resolve("index-abc123.js"), "console.log('varroa')");
    Files.writeString(ui.resolve("index-def456.css"), "body{}");
    Files.writeString(classpath.resolve("ui/favicon.svg"), "<svg xmlns=\"http://www.w3.org/2000/svg\"/>");
    Files.writeString(classpath.resolve("secret.properties"), "password=hunter2");
    loader = new URLClassLoader(new URL[] {classpath.toUri().toURL()}, null);

    jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    context.addServlet(new ServletHolder("ui", new WebClientServlet("ui", loader)), "/ui/*");
    context.addServlet(new ServletHolder("ui-root", new RootRedirectServlet()), "");
    context.addServlet(new ServletHolder("api", new ApiStandIn()), "/*");
    jetty.setHandler(context);
    jetty.start();
    base = "http://127.0.0.1:" + connector.getLocalPort();
  }

  @AfterAll
  static void stop() throws Exception {
    jetty.stop();
    loader.close();
  }

  /** Answers every path it is given, as the read API's "/*" mapping does. */
  static final class ApiStandIn extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
      response.setContentType("application/json");
      response.getWriter().write("{\"api\":\"" + request.getRequestURI() + "\"}");
    }
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Jetty may or may not keep the space before charset; the type is what counts. */
  private static String contentType(HttpResponse<?> response) {
    return response.headers().firstValue("Content-Type").orElse("").replace(" ", "").toLowerCase();
  }

  @Test
  void servesHashedAssetsCachedForAYearWithTheirContentType() throws Exception {
    HttpResponse<String> js = get("/ui/assets/index-abc123.js");
    assertThat(js.statusCode()).isEqualTo(200);
    assertThat(js.body()).isEqualTo("console.log('varroa')");
    assertThat(contentType(js)).isEqualTo("text/javascript;charset=utf-8");
    assertThat(js.headers().firstValue("Cache-Control")).hasValue("public, max-age=31536000, immutable");
    assertThat(js.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    assertThat(contentType(get("/ui/assets/index-def456.css"))).isEqualTo("text/css;charset=utf-8");
    assertThat(contentType(get("/ui/favicon.svg"))).isEqualTo("image/svg+xml");
  }

  @Test
  void answersIndexHtmlUncachedForEveryClientRoute() throws Exception {
    for (String path : new String[] {"/ui/", "/ui/controllers", "/ui/controllers/core/ci/team-a?tab=yaml",
        "/ui/runs/2cefcf29", "/ui/index.html", "/ui/no/such/page.png"}) {
      HttpResponse<String> page = get(path);
      assertThat(page.statusCode()).as(path).isEqualTo(200);
      assertThat(page.body()).as(path).isEqualTo(INDEX);
      assertThat(contentType(page)).as(path).isEqualTo("text/html;charset=utf-8");
      assertThat(page.headers().firstValue("Cache-Control")).as(path).hasValue("no-cache");
      assertThat(page.headers().firstValue("Content-Security-Policy")).as(path).hasValue("default-src 'self'");
      assertThat(page.headers().firstValue("X-Content-Type-Options")).as(path).hasValue("nosniff");
    }
  }

  @Test
  void answersNotModifiedWhenTheBrowserHoldsTheSameIndex() throws Exception {
    String etag = get("/ui/").headers().firstValue("ETag").orElseThrow();
    HttpResponse<String> again = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/ui/controllers"))
        .header("If-None-Match", etag).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(again.statusCode()).isEqualTo(304);
  }

  @Test
  void answers404ForAMissingAssetInsteadOfThePage() throws Exception {
    HttpResponse<String> missing = get("/ui/assets/index-000000.js");
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(missing.body()).contains("\"error\":\"not_found\"");
  }

  @Test
  void neverServesAFileOutsideUi() throws Exception {
    for (String path : new String[] {"/ui/../secret.properties", "/ui/%2e%2e/secret.properties",
        "/ui/assets/..%2f..%2fsecret.properties", "/ui/assets/%2e%2e/%2e%2e/secret.properties"}) {
      HttpResponse<String> response = get(path);
      assertThat(response.body()).as(path).doesNotContain("hunter2");
    }
  }

  @Test
  void redirectsTheExactRootToTheClientAndLeavesOtherPathsToTheApi() throws Exception {
    HttpResponse<String> root = get("/");
    assertThat(root.statusCode()).isEqualTo(302);
    assertThat(root.headers().firstValue("Location")).hasValue("/ui/");
    HttpResponse<String> bare = get("/ui");
    assertThat(bare.statusCode()).isEqualTo(302);
    assertThat(bare.headers().firstValue("Location")).hasValue("/ui/");
    assertThat(get("/controllers").body()).isEqualTo("{\"api\":\"/controllers\"}");
    assertThat(get("/uix").body()).isEqualTo("{\"api\":\"/uix\"}");
  }

  @Test
  void refusesEveryMethodButGetAndHead() throws Exception {
    HttpResponse<String> post = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/ui/"))
        .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(post.statusCode()).isEqualTo(405);
    HttpResponse<Void> head = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/ui/assets/index-abc123.js"))
        .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.headers().firstValue("Content-Length")).hasValue("21");
  }
}
