package dev.varroa.mite;

import dev.varroa.protocol.mite.v1.Header;
import dev.varroa.protocol.mite.v1.ReplayDelivery;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a webhook delivery kept while the controller was parked to Jenkins over localhost, as its sender sent it:
 * same method, path, body and headers (minus the ones that belong to the original connection), and without the
 * mite's bearer token, so Jenkins checks the delivery as it would have checked the original (its signature, its
 * token). Logs and results name the path without its query, which may carry a build token.
 */
final class DeliveryReplay {

  /**
   * Headers that describe the original connection, not the delivery (RFC 9110 section 7.6.1, and the older
   * Proxy-* pair), plus the ones the HTTP client sets itself (Host, Content-Length) or refuses (Expect).
   */
  static final Set<String> CONNECTION_HEADERS = Set.of("connection", "proxy-connection", "keep-alive", "te",
      "transfer-encoding", "upgrade", "trailer", "proxy-authenticate", "proxy-authorization", "host",
      "content-length", "expect");

  private static final Logger LOG = LoggerFactory.getLogger(DeliveryReplay.class);

  private final JenkinsClient jenkins;
  private final Clock clock;

  DeliveryReplay(JenkinsClient jenkins, Clock clock) {
    this.jenkins = jenkins;
    this.clock = clock;
  }

  CommandOutcome replay(ReplayDelivery delivery, Instant deadline) throws InterruptedException {
    String shown = withoutQuery(delivery.getPath());
    Optional<String> pathProblem = pathProblem(delivery.getPath());
    if (pathProblem.isPresent()) {
      return CommandOutcome.rejected(pathProblem.get());
    }
    if (delivery.getMethod().isBlank()) {
      return CommandOutcome.rejected("replay_delivery.method is empty: send the HTTP method of the original "
          + "delivery, e.g. POST");
    }
    String what = delivery.getMethod() + " " + shown;
    JenkinsAnswer answer;
    try {
      answer = jenkins.sendAsSender(delivery.getMethod(), delivery.getPath(), forwardedHeaders(delivery.getHeadersList()),
          delivery.getBody().toByteArray(), Duration.between(clock.instant(), deadline));
    } catch (IllegalArgumentException e) {
      // the JDK refuses a method or header that is not valid HTTP before anything is sent
      return CommandOutcome.rejected("replay_delivery " + what + " is not a valid HTTP request: " + e.getMessage());
    } catch (HttpConnectTimeoutException e) {
      return CommandOutcome.failed("Jenkins did not accept a connection within "
          + JenkinsClient.CONNECT_TIMEOUT.toSeconds() + " s at " + jenkins.base(), 0);
    } catch (HttpTimeoutException e) {
      return CommandOutcome.deadlineExceeded("Jenkins did not answer the replayed " + what
          + " before the command deadline " + deadline);
    } catch (IOException e) {
      if (JenkinsClient.notListening(e)) {
        return CommandOutcome.failed("Jenkins is not running (nothing listens at its address)", 0);
      }
      return CommandOutcome.failed("the replayed " + what + " failed: " + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : ": " + e.getMessage()), 0);
    }
    LOG.info("event=delivery_replayed method={} path={} body_bytes={} jenkins_status={}", delivery.getMethod(), shown,
        delivery.getBody().size(), answer.status());
    if (answer.ok() || answer.redirect()) {
      return CommandOutcome.succeeded("Jenkins answered the replayed " + what + " with HTTP " + answer.status(),
          answer.status());
    }
    return CommandOutcome.failed(JenkinsErrorText.of(answer), answer.status());
  }

  /**
   * Why {@code path} is not a path on this Jenkins: it must start with "/", name no scheme or host, and have no
   * ".." segment (also when percent-encoded), so a replay can only reach Jenkins' own URL space.
   */
  static Optional<String> pathProblem(String path) {
    String fix = ": send the path the delivery was addressed to, relative to Jenkins' root URL, e.g. /github-webhook/";
    String field = "replay_delivery.path \"" + withoutQuery(path) + "\"";
    if (path.isEmpty()) {
      return Optional.of("replay_delivery.path is empty" + fix);
    }
    if (!path.startsWith("/")) {
      return Optional.of(field + " does not start with /" + fix);
    }
    if (path.startsWith("//") || path.indexOf('\\') >= 0) {
      return Optional.of(field + " could name another host (// or a backslash)" + fix);
    }
    URI uri;
    try {
      uri = new URI(path);
    } catch (URISyntaxException e) {
      return Optional.of(field + " is not a valid URI path (" + e.getReason() + " at index " + e.getIndex() + ")"
          + fix);
    }
    if (uri.getScheme() != null || uri.getRawAuthority() != null || uri.getRawFragment() != null) {
      return Optional.of(field + " names a scheme, a host or a fragment" + fix);
    }
    for (String segment : uri.getPath().split("/", -1)) {
      if (segment.equals("..")) {
        return Optional.of(field + " has a \"..\" segment" + fix);
      }
    }
    return Optional.empty();
  }

  /** The recorded headers in their order, without the connection's own and those named by its Connection header. */
  static List<Map.Entry<String, String>> forwardedHeaders(List<Header> recorded) {
    Set<String> dropped = new TreeSet<>(CONNECTION_HEADERS);
    for (Header header : recorded) {
      if (header.getName().equalsIgnoreCase("connection")) {
        for (String named : header.getValue().split(",")) {
          dropped.add(named.strip().toLowerCase(Locale.ROOT));
        }
      }
    }
    List<Map.Entry<String, String>> forwarded = new ArrayList<>();
    for (Header header : recorded) {
      if (!dropped.contains(header.getName().strip().toLowerCase(Locale.ROOT))) {
        forwarded.add(Map.entry(header.getName(), header.getValue()));
      }
    }
    return forwarded;
  }

  static String withoutQuery(String path) {
    int query = path.indexOf('?');
    return query < 0 ? path : path.substring(0, query);
  }
}
