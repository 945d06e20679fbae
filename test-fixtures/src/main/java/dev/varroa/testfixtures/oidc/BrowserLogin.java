package dev.varroa.testfixtures.oidc;

import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a person's browser does to log in at the provider, by hand (no OIDC library, so it checks the library the
 * product uses rather than sharing it): authorize with PKCE, the provider's username and password form, the
 * redirects back with the code, then the code traded at the token endpoint as the web client.
 */
public final class BrowserLogin {

  /** The provider's answer at the token endpoint. */
  public record Tokens(String idToken, String accessToken) {
  }

  private static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

  private BrowserLogin() {
  }

  /** Logs in as user through the web client, whose redirect URI the provider was started with. */
  public static Tokens login(OidcProvider provider, String redirectUri, String username, String password)
      throws IOException, InterruptedException {
    String discovery = get(provider.discoveryUrl()).body();
    String authorize = field(discovery, "authorization_endpoint");
    String token = field(discovery, "token_endpoint");
    String verifier = Base64.getUrlEncoder().withoutPadding().encodeToString(new SecureRandom().generateSeed(32));
    String challenge = Base64.getUrlEncoder().withoutPadding().encodeToString(sha256(verifier));
    String state = Long.toHexString(new SecureRandom().nextLong());

    URI next = authorize(provider, URI.create(authorize + "?" + form(Map.of("client_id", OidcProvider.WEB_CLIENT_ID,
        "redirect_uri", redirectUri, "response_type", "code", "scope", "openid email profile", "state", state,
        "code_challenge", challenge, "code_challenge_method", "S256"))), username, password);
    Map<String, String> callback = query(next);
    if (!state.equals(callback.get("state")) || callback.get("code") == null) {
      throw new IllegalStateException("the provider redirected back without the code or with another state: " + next);
    }
    String basic = Base64.getEncoder().encodeToString((OidcProvider.WEB_CLIENT_ID + ":"
        + OidcProvider.WEB_CLIENT_SECRET).getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> tokens = HTTP.send(HttpRequest.newBuilder(URI.create(token))
        .header("Content-Type", "application/x-www-form-urlencoded").header("Authorization", "Basic " + basic)
        .POST(HttpRequest.BodyPublishers.ofString(form(Map.of("grant_type", "authorization_code",
            "code", callback.get("code"), "redirect_uri", redirectUri, "code_verifier", verifier)))).build(),
        HttpResponse.BodyHandlers.ofString());
    if (tokens.statusCode() != 200) {
      throw new IllegalStateException("the token endpoint answered " + tokens.statusCode() + ": " + tokens.body());
    }
    return new Tokens(field(tokens.body(), "id_token"), field(tokens.body(), "access_token"));
  }

  /**
   * A person's part of a login an application started: from the application's authorization URI through the
   * provider's login form to the redirect back to the application, which is returned (not followed).
   */
  public static URI authorize(OidcProvider provider, URI authorizationUri, String username, String password)
      throws IOException, InterruptedException {
    HttpResponse<String> start = get(authorizationUri.toString());
    URI login = authorizationUri.resolve(location(start, "authorize"));
    String requestId = query(login).get("authRequestID");
    HttpResponse<String> posted = HTTP.send(HttpRequest.newBuilder(URI.create(provider.issuer() + "login/username"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form(Map.of("id", String.valueOf(requestId), "username", username,
            "password", password)))).build(), HttpResponse.BodyHandlers.ofString());
    URI next = login.resolve(location(posted, "the login form (wrong username or password?)"));
    URI issuer = URI.create(provider.issuer());
    // the provider's own pages (its login callback) are followed; the first redirect elsewhere is the application's
    while (next.getPort() == issuer.getPort() && issuer.getHost().equals(next.getHost())) {
      next = next.resolve(location(get(next.toString()), next.toString()));
    }
    return next;
  }

  private static String location(HttpResponse<String> response, String step) {
    if (response.statusCode() < 301 || response.statusCode() > 303) {
      throw new IllegalStateException(step + " answered " + response.statusCode() + " instead of a redirect: "
          + response.body());
    }
    return response.headers().firstValue("location").orElseThrow();
  }

  private static HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.US_ASCII));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }

  static String field(String json, String name) {
    Matcher matcher = Pattern.compile("\"" + name + "\":\"([^\"]*)\"").matcher(json);
    if (!matcher.find()) {
      throw new IllegalStateException("no " + name + " in " + json);
    }
    return matcher.group(1);
  }

  private static String form(Map<String, String> values) {
    StringBuilder form = new StringBuilder();
    new LinkedHashMap<>(values).forEach((key, value) -> form.append(form.length() == 0 ? "" : "&")
        .append(URLEncoder.encode(key, StandardCharsets.UTF_8)).append('=')
        .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
    return form.toString();
  }

  private static Map<String, String> query(URI uri) {
    Map<String, String> values = new LinkedHashMap<>();
    String raw = uri.getRawQuery();
    if (raw != null) {
      for (String pair : raw.split("&")) {
        int eq = pair.indexOf('=');
        values.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return values;
  }
}
