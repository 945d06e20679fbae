package dev.varroa.dashboard.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.testfixtures.oidc.BrowserLogin;
import dev.varroa.testfixtures.oidc.OidcProvider;
import dev.varroa.testfixtures.oidc.OidcProviderExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** ID tokens from a real login at the real provider: the right one passes; forged, expired, foreign ones do not. */
class BearerTokenVerifierIT {

  private static final String REDIRECT = "http://127.0.0.1:8080/auth/callback";

  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(
      List.of(new OidcProvider.User("u1", "alice", "alice-password", "alice@example.com")), List.of(REDIRECT));

  private static URI jwks;
  private static String idToken;

  @BeforeAll
  static void login() throws Exception {
    String discovery = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create(OIDC.provider().discoveryUrl())).build(), HttpResponse.BodyHandlers.ofString()).body();
    Matcher matcher = Pattern.compile("\"jwks_uri\":\"([^\"]*)\"").matcher(discovery);
    assertThat(matcher.find()).isTrue();
    jwks = URI.create(matcher.group(1));
    idToken = BrowserLogin.login(OIDC.provider(), REDIRECT, "alice", "alice-password").idToken();
  }

  private static BearerTokenVerifier verifier(String audience, Clock clock) {
    return new BearerTokenVerifier(OIDC.provider().issuer(), java.util.Set.of(audience), jwks, "sub", "groups", clock);
  }

  @Test
  void theProvidersIdTokenForThisAudiencePasses() throws Exception {
    Caller caller = verifier(OidcProvider.WEB_CLIENT_ID, Clock.systemUTC()).verify(idToken);
    assertThat(caller.user()).isEqualTo("u1");
    // this provider keeps profile and email claims for its userinfo endpoint (Dex puts email in the ID token)
    assertThat(caller.groups()).isEmpty();
  }

  @Test
  void aTokenWithoutTheUsernameClaimIsRefusedNamingTheSetting() {
    BearerTokenVerifier byEmail = new BearerTokenVerifier(OIDC.provider().issuer(),
        java.util.Set.of(OidcProvider.WEB_CLIENT_ID), jwks, "email", "groups", Clock.systemUTC());
    assertThatThrownBy(() -> byEmail.verify(idToken)).isInstanceOf(BearerTokenVerifier.Refused.class)
        .hasMessageContaining("'email' claim").hasMessageContaining("VARROA_OIDC_USERNAME_CLAIM");
  }

  @Test
  void aForgedSignatureIsRefused() {
    String[] parts = idToken.split("\\.");
    String forged = parts[0] + "." + parts[1] + "." + new StringBuilder(parts[2]).reverse();
    assertThatThrownBy(() -> verifier(OidcProvider.WEB_CLIENT_ID, Clock.systemUTC()).verify(forged))
        .isInstanceOf(BearerTokenVerifier.Refused.class);
  }

  @Test
  void anotherAudienceIsRefused() {
    assertThatThrownBy(() -> verifier("someone-else", Clock.systemUTC()).verify(idToken))
        .isInstanceOf(BearerTokenVerifier.Refused.class).hasMessageContaining("aud");
  }

  @Test
  void anExpiredTokenIsRefused() {
    // the provider's ID tokens live an hour
    Clock later = Clock.offset(Clock.systemUTC(), Duration.ofHours(3));
    assertThatThrownBy(() -> verifier(OidcProvider.WEB_CLIENT_ID, later).verify(idToken))
        .isInstanceOf(BearerTokenVerifier.Refused.class).hasMessageContaining("xpired");
  }

  @Test
  void somethingThatIsNoJwtIsRefused() {
    assertThatThrownBy(() -> verifier(OidcProvider.WEB_CLIENT_ID, Clock.systemUTC()).verify("opaque-token"))
        .isInstanceOf(BearerTokenVerifier.Refused.class).hasMessageContaining("not a JWT");
  }
}
