package dev.varroa.testfixtures.oidc;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A browser's authorization code login with PKCE against the real provider, by hand (no OIDC library), so the
 * fixture is known to serve the flow the BFF will use: authorize, the provider's login form, the redirect with the
 * code, and the token endpoint answering an ID token (a JWT) for the code and its verifier.
 */
class OidcLoginFlowIT {

  private static final String REDIRECT = "http://127.0.0.1:8080/auth/callback";

  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(
      List.of(new OidcProvider.User("u1", "alice", "alice-password", "alice@example.com")), List.of(REDIRECT));

  private static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

  @Test
  void aUserLogsInWithAuthorizationCodeAndPkceAndGetsAnIdToken() throws Exception {
    OidcProvider provider = OIDC.provider();
    String discovery = get(provider.discoveryUrl()).body();
    String authorize = field(discovery, "authorization_endpoint");
    String token = field(discovery, "token_endpoint");
    String verifier = Base64.getUrlEncoder().withoutPadding().encodeToString(new SecureRandom().generateSeed(32));
    String challenge = Base64.getUrlEncoder().withoutPadding().encodeToString(
        MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));

    HttpResponse<String> start = get(authorize + "?" + form(Map.of("client_id", OidcProvider.WEB_CLIENT_ID,
        "redirect_uri", REDIRECT, "response_type", "code", "scope", "openid email profile", "state", "s1",
        "code_challenge", challenge, "code_challenge_method", "S256")));
    assertThat(start.statusCode()).isEqualTo(302);
    URI login = URI.create(authorize).resolve(start.headers().firstValue("location").orElseThrow());
    String requestId = query(login).get("authRequestID");
    assertThat(requestId).isNotBlank();

    HttpResponse<String> posted = HTTP.send(HttpRequest.newBuilder(URI.create(provider.issuer() + "login/username"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form(Map.of("id", requestId, "username", "alice",
            "password", "alice-password")))).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(posted.statusCode()).isEqualTo(302);
    URI next = login.resolve(posted.headers().firstValue("location").orElseThrow());
    // the provider's own callback, then the client's redirect URI with the code
    while (!next.toString().startsWith(REDIRECT)) {
      HttpResponse<String> hop = get(next.toString());
      assertThat(hop.statusCode()).as("redirect from " + next).isBetween(301, 303);
      next = next.resolve(hop.headers().firstValue("location").orElseThrow());
    }
    Map<String, String> callback = query(next);
    assertThat(callback).containsEntry("state", "s1");

    String basic = Base64.getEncoder().encodeToString((OidcProvider.WEB_CLIENT_ID + ":"
        + OidcProvider.WEB_CLIENT_SECRET).getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> tokens = HTTP.send(HttpRequest.newBuilder(URI.create(token))
        .header("Content-Type", "application/x-www-form-urlencoded").header("Authorization", "Basic " + basic)
        .POST(HttpRequest.BodyPublishers.ofString(form(Map.of("grant_type", "authorization_code",
            "code", callback.get("code"), "redirect_uri", REDIRECT, "code_verifier", verifier)))).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(tokens.statusCode()).as(tokens.body()).isEqualTo(200);
    String idToken = field(tokens.body(), "id_token");
    assertThat(idToken.split("\\.")).hasSize(3);
    String claims = new String(Base64.getUrlDecoder().decode(idToken.split("\\.")[1]), StandardCharsets.UTF_8);
    assertThat(claims).contains("\"iss\":\"" + provider.issuer() + "\"").contains("\"aud\":[\"web\"]")
        .contains("\"sub\":\"u1\"");
  }

  private static HttpResponse<String> get(String url) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String field(String json, String name) {
    Matcher matcher = Pattern.compile("\"" + name + "\":\"([^\"]*)\"").matcher(json);
    assertThat(matcher.find()).as(name + " in " + json).isTrue();
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
