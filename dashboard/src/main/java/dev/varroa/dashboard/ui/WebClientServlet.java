package dev.varroa.dashboard.ui;

import dev.varroa.dashboard.api.JsonResponses;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The browser client under {@code /ui/}: the files Vite built into the jar's {@code ui/} folder. Hashed files under
 * {@code /ui/assets/} are cached for a year; every other path answers {@code index.html}, uncached, so a deep link
 * such as {@code /ui/controllers/core/ci/team-a} opens the client, which then routes it.
 */
public final class WebClientServlet extends HttpServlet {

  /** Vite names every asset by its content hash: a changed file gets a new name, so it may be cached for good. */
  static final String ASSET_CACHE = "public, max-age=31536000, immutable";
  static final String INDEX_CACHE = "no-cache";
  /** The client loads only its own scripts, styles and images and talks only to this origin. */
  static final String CONTENT_SECURITY_POLICY = "default-src 'self'";

  private static final Map<String, String> CONTENT_TYPES = Map.of(
      "js", "text/javascript; charset=utf-8",
      "css", "text/css; charset=utf-8",
      "html", "text/html; charset=utf-8",
      "svg", "image/svg+xml",
      "png", "image/png",
      "ico", "image/x-icon",
      "woff2", "font/woff2",
      "json", "application/json",
      "map", "application/json",
      "txt", "text/plain; charset=utf-8");

  /** One path segment of a built file: letters, digits, dot, dash, underscore; never "." or "..". */
  private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]*");

  private final String root;
  private final ClassLoader loader;
  private final Map<String, StaticFile> files = new ConcurrentHashMap<>();

  /** Serves the classpath folder {@code root} (the jar's {@code ui}). */
  public WebClientServlet(String root, ClassLoader loader) {
    this.root = root;
    this.loader = loader;
  }

  public WebClientServlet() {
    this("ui", WebClientServlet.class.getClassLoader());
  }

  private record StaticFile(byte[] body, String contentType, String etag) {}

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
    String method = request.getMethod();
    if (!"GET".equals(method) && !"HEAD".equals(method)) {
      response.setHeader("Allow", "GET, HEAD");
      JsonResponses.error(response, 405, "method_not_allowed", "the dashboard client is only read: " + method);
      return;
    }
    String path = request.getPathInfo();
    if (path == null) {
      // "/ui" without the slash: the client's relative asset links need the folder form.
      response.setHeader("Location", "/ui/");
      response.setStatus(302);
      return;
    }
    response.setHeader("X-Content-Type-Options", "nosniff");
    Optional<String> relative = relative(path);
    if (relative.isPresent() && relative.get().startsWith("assets/")) {
      Optional<StaticFile> asset = file(relative.get());
      if (asset.isEmpty()) {
        JsonResponses.error(response, 404, "not_found", "no such file in the dashboard client: /ui" + path);
        return;
      }
      send(request, response, asset.get(), ASSET_CACHE, false);
      return;
    }
    Optional<StaticFile> file = relative.filter(name -> !name.isEmpty() && extension(name) != null)
        .flatMap(this::file);
    if (file.isPresent() && !relative.get().equals("index.html")) {
      send(request, response, file.get(), INDEX_CACHE, false);
      return;
    }
    Optional<StaticFile> index = file("index.html");
    if (index.isEmpty()) {
      JsonResponses.error(response, 404, "not_found",
          "this BFF was built without the browser client (no ui/index.html on its classpath): build dashboard with Maven, which runs npm");
      return;
    }
    send(request, response, index.get(), INDEX_CACHE, true);
  }

  private static void send(HttpServletRequest request, HttpServletResponse response, StaticFile file,
      String cacheControl, boolean page) throws IOException {
    response.setHeader("Cache-Control", cacheControl);
    response.setHeader("ETag", file.etag());
    if (page) {
      response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
      response.setHeader("Referrer-Policy", "same-origin");
    }
    response.setContentType(file.contentType());
    if (file.etag().equals(request.getHeader("If-None-Match"))) {
      response.setStatus(304);
      return;
    }
    response.setStatus(200);
    response.setContentLength(file.body().length);
    if (!"HEAD".equals(request.getMethod())) {
      response.getOutputStream().write(file.body());
    }
  }

  /** The path below /ui/ as a classpath-relative name, or empty when a segment is not a plain file name. */
  static Optional<String> relative(String pathInfo) {
    String trimmed = pathInfo.startsWith("/") ? pathInfo.substring(1) : pathInfo;
    if (trimmed.isEmpty()) {
      return Optional.of("");
    }
    for (String segment : trimmed.split("/", -1)) {
      if (!SEGMENT.matcher(segment).matches() || segment.contains("..")) {
        return Optional.empty();
      }
    }
    return Optional.of(trimmed);
  }

  private static String extension(String name) {
    int dot = name.lastIndexOf('.');
    int slash = name.lastIndexOf('/');
    return dot > slash ? CONTENT_TYPES.get(name.substring(dot + 1).toLowerCase(Locale.ROOT)) : null;
  }

  private Optional<StaticFile> file(String name) {
    String type = extension(name);
    if (type == null) {
      return Optional.empty();
    }
    StaticFile known = files.get(name);
    if (known != null) {
      return Optional.of(known);
    }
    URL url = loader.getResource(root + "/" + name);
    if (url == null || isDirectory(url)) {
      return Optional.empty();
    }
    try (InputStream in = url.openStream()) {
      byte[] body = in.readAllBytes();
      StaticFile file = new StaticFile(body, type, etag(body));
      files.put(name, file);
      return Optional.of(file);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the dashboard client's file " + url + ": " + e.getMessage(), e);
    }
  }

  private static boolean isDirectory(URL url) {
    if (!"file".equals(url.getProtocol())) {
      // In a jar a folder's entry ends with "/", which the name check already excludes.
      return false;
    }
    try {
      return !Files.isRegularFile(Path.of(url.toURI()));
    } catch (URISyntaxException e) {
      return true;
    }
  }

  private static String etag(byte[] body) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(body);
      return "\"" + HexFormat.of().formatHex(hash, 0, 12) + "\"";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}
