package dev.varroa.testfixtures.oidc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The fixture serves the login the BFF will use: authorization code with PKCE ends in an ID token (a JWT). */
class OidcLoginFlowIT {

  private static final String REDIRECT = "http://127.0.0.1:8080/auth/callback";

  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(
      List.of(new OidcProvider.User("u1", "alice", "alice-password", "alice@example.com")), List.of(REDIRECT));

  @Test
  void aUserLogsInWithAuthorizationCodeAndPkceAndGetsAnIdToken() throws Exception {
    BrowserLogin.Tokens tokens = BrowserLogin.login(OIDC.provider(), REDIRECT, "alice", "alice-password");

    String[] parts = tokens.idToken().split("\\.");
    assertThat(parts).hasSize(3);
    String claims = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
    assertThat(claims).contains("\"iss\":\"" + OIDC.provider().issuer() + "\"").contains("\"aud\":[\"web\"]")
        .contains("\"sub\":\"u1\"");
    assertThat(tokens.accessToken()).isNotBlank();
  }

  @Test
  void aWrongPasswordGetsNoCode() {
    assertThatThrownBy(() -> BrowserLogin.login(OIDC.provider(), REDIRECT, "alice", "guess"))
        .hasMessageContaining("the login form");
  }
}
