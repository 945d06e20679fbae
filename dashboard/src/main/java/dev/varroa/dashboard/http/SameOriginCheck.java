package dev.varroa.dashboard.http;

import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether a state-changing request (POST /auth/logout) came from the dashboard's own pages: browsers say where a
 * request came from in Sec-Fetch-Site and Origin, which a page of another site cannot forge. A request without
 * either is not from a browser, so no other site can have sent it in a person's name.
 */
public final class SameOriginCheck {

  private final String publicOrigin;

  /** @param publicUrl the BFF's browser-facing URL (VARROA_BFF_PUBLIC_URL) */
  public SameOriginCheck(URI publicUrl) {
    this.publicOrigin = origin(publicUrl);
  }

  /** Why the request is refused as coming from another site, or empty when it is from this origin. */
  public Optional<String> refusal(HttpServletRequest request) {
    String site = request.getHeader("Sec-Fetch-Site");
    if (site != null) {
      String value = site.trim().toLowerCase(Locale.ROOT);
      return value.equals("same-origin") || value.equals("none") ? Optional.empty()
          : Optional.of("the browser says it came from another site (Sec-Fetch-Site: " + value + ")");
    }
    String origin = request.getHeader("Origin");
    if (origin == null) {
      return Optional.empty();
    }
    String claimed = origin.trim().toLowerCase(Locale.ROOT);
    if (claimed.equals(publicOrigin)) {
      return Optional.empty();
    }
    String host = request.getHeader("Host");
    if (host != null && !claimed.equals("null") && hostOf(claimed).equals(host.trim().toLowerCase(Locale.ROOT))) {
      return Optional.empty();
    }
    return Optional.of("the browser says it came from " + (claimed.length() > 100 ? claimed.substring(0, 100)
        : claimed) + ", not " + publicOrigin);
  }

  private static String hostOf(String origin) {
    int scheme = origin.indexOf("://");
    return scheme < 0 ? "" : origin.substring(scheme + 3);
  }

  static String origin(URI url) {
    String scheme = url.getScheme().toLowerCase(Locale.ROOT);
    int port = url.getPort();
    boolean defaultPort = port < 0 || scheme.equals("http") && port == 80 || scheme.equals("https") && port == 443;
    return scheme + "://" + url.getHost().toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port);
  }
}
