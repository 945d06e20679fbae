package dev.varroa.dashboard.identity;

import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How the BFF meets its OpenID provider (Dex in the chart): whose tokens it accepts, which claims name the user
 * and their groups, and how a browser logs in.
 *
 * @param issuer the provider's issuer URL (VARROA_OIDC_ISSUER)
 * @param clientId the BFF's client at the provider (VARROA_OIDC_CLIENT_ID, default varroa-dashboard)
 * @param clientSecretFile the client secret's file (VARROA_OIDC_CLIENT_SECRET_FILE); empty: a public client (PKCE only)
 * @param audiences aud values bearer tokens may carry (VARROA_OIDC_AUDIENCES, comma-separated; default the client id)
 * @param usernameClaim the claim that names the user (VARROA_OIDC_USERNAME_CLAIM, default email)
 * @param groupsClaim the claim that lists groups (VARROA_OIDC_GROUPS_CLAIM, default groups)
 * @param scopes what the browser login asks for (VARROA_OIDC_SCOPES, default "openid profile email groups")
 * @param publicUrl the browser-facing base URL of the BFF (VARROA_BFF_PUBLIC_URL); the redirect URI is
 *     &lt;publicUrl&gt;/auth/callback
 * @param cliClientId the public client varroactl logs in with (VARROA_OIDC_CLI_CLIENT_ID, default varroactl);
 *     GET /auth/config tells varroactl the issuer and this client
 */
public record OidcSettings(URI issuer, String clientId, Optional<Path> clientSecretFile, Set<String> audiences,
    String usernameClaim, String groupsClaim, List<String> scopes, URI publicUrl, String cliClientId) {

  public static final String DEFAULT_CLIENT_ID = "varroa-dashboard";
  public static final String DEFAULT_USERNAME_CLAIM = "email";
  public static final String DEFAULT_GROUPS_CLAIM = "groups";
  public static final String DEFAULT_CLI_CLIENT_ID = "varroactl";
  public static final String DEFAULT_SCOPES = "openid profile email groups";

  public OidcSettings {
    audiences = Set.copyOf(audiences);
    scopes = List.copyOf(scopes);
  }

  public URI redirectUri() {
    String base = publicUrl.toString();
    return URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/auth/callback");
  }

  /** From the environment; every missing or malformed value is refused naming its variable. */
  public static OidcSettings fromEnv(Map<String, String> env, int httpPort) {
    URI issuer = url(env, "VARROA_OIDC_ISSUER", null);
    String clientId = value(env, "VARROA_OIDC_CLIENT_ID", DEFAULT_CLIENT_ID);
    Optional<Path> secret = Optional.ofNullable(env.get("VARROA_OIDC_CLIENT_SECRET_FILE"))
        .filter(v -> !v.isBlank()).map(Path::of);
    Set<String> audiences = new LinkedHashSet<>();
    Arrays.stream(value(env, "VARROA_OIDC_AUDIENCES", clientId).split(","))
        .map(String::trim).filter(a -> !a.isEmpty()).forEach(audiences::add);
    List<String> scopes = Arrays.stream(value(env, "VARROA_OIDC_SCOPES", DEFAULT_SCOPES).split("[ ,]+"))
        .filter(s -> !s.isEmpty()).toList();
    if (!scopes.contains("openid")) {
      throw new IllegalArgumentException("VARROA_OIDC_SCOPES must contain openid (an OpenID login): "
          + String.join(" ", scopes));
    }
    URI publicUrl = url(env, "VARROA_BFF_PUBLIC_URL", "http://localhost:" + httpPort);
    return new OidcSettings(issuer, clientId, secret, audiences,
        value(env, "VARROA_OIDC_USERNAME_CLAIM", DEFAULT_USERNAME_CLAIM),
        value(env, "VARROA_OIDC_GROUPS_CLAIM", DEFAULT_GROUPS_CLAIM), scopes, publicUrl,
        value(env, "VARROA_OIDC_CLI_CLIENT_ID", DEFAULT_CLI_CLIENT_ID));
  }

  private static String value(Map<String, String> env, String name, String fallback) {
    String value = env.get(name);
    return value == null || value.isBlank() ? fallback : value.trim();
  }

  private static URI url(Map<String, String> env, String name, String fallback) {
    String value = value(env, name, fallback);
    if (value == null) {
      throw new IllegalArgumentException(name + " is not set: give the OpenID provider's issuer URL, e.g. "
          + "https://dex.example.com/dex (the chart sets Dex's)");
    }
    try {
      URI uri = new URI(value);
      if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
        throw new IllegalArgumentException(name + " must be an http(s) URL with a host: " + value);
      }
      return uri;
    } catch (java.net.URISyntaxException e) {
      throw new IllegalArgumentException(name + " is not a URL: " + value, e);
    }
  }
}
