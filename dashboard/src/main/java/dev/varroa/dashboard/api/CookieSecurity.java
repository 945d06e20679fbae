package dev.varroa.dashboard.api;

import java.net.URI;
import java.util.Locale;
import java.util.Set;

/**
 * Whether the dashboard's cookies carry {@code Secure}: yes when browsers reach it over https, and on localhost, which
 * browsers treat as secure over plain HTTP too (the chart's default, through kubectl port-forward). A browser refuses
 * a Secure cookie from any other plain-HTTP origin, so there the login could never complete: an ingress without TLS,
 * or a Service reached by its name. Such a dashboard works, and says at its start that it should have TLS.
 */
public record CookieSecurity(boolean secure) {
  private static final Set<String> LOOPBACK_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

  /** From the browser-facing URL (VARROA_BFF_PUBLIC_URL). */
  public static CookieSecurity forPublicUrl(URI publicUrl) {
    String scheme = publicUrl.getScheme() == null ? "" : publicUrl.getScheme().toLowerCase(Locale.ROOT);
    String host = publicUrl.getHost() == null ? "" : publicUrl.getHost().toLowerCase(Locale.ROOT);
    return new CookieSecurity(scheme.equals("https") || LOOPBACK_HOSTS.contains(host) || host.endsWith(".localhost"));
  }

  /** The attributes every dashboard cookie ends with. */
  String attributes() {
    return secure ? "; HttpOnly; Secure; SameSite=Lax" : "; HttpOnly; SameSite=Lax";
  }
}
