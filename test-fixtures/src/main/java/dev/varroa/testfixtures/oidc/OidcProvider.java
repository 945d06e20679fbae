package dev.varroa.testfixtures.oidc;

import java.util.List;

/**
 * A running OpenID provider: zitadel/oidc's example server (test-fixtures/oidc/install.sh). Its issuer is
 * http://localhost:&lt;port&gt;/; it knows the client {@code web} (secret {@code secret}, authorization code with
 * basic client authentication), the public client {@code native} (PKCE, no secret) and the users it was started
 * with. Its access tokens are opaque; its ID tokens are JWTs signed with the keys at its JWKS endpoint.
 */
public record OidcProvider(String issuer, int port, List<User> users) {

  public static final String WEB_CLIENT_ID = "web";
  public static final String WEB_CLIENT_SECRET = "secret";
  public static final String NATIVE_CLIENT_ID = "native";

  /** A user who can log in with username and password on the provider's login page. */
  public record User(String id, String username, String password, String email) {
  }

  public String discoveryUrl() {
    return issuer + ".well-known/openid-configuration";
  }
}
