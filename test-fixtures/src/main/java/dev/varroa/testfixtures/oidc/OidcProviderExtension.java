package dev.varroa.testfixtures.oidc;

import dev.varroa.testfixtures.ClassScopedFixtureExtension;
import java.util.List;

/**
 * Starts one real OpenID provider (zitadel/oidc's example server) per test class on a free port, with the given
 * users and redirect URIs, and stops it after the class. Keep it in a {@code static @RegisterExtension} field.
 */
public final class OidcProviderExtension extends ClassScopedFixtureExtension<OidcProvider> {

  private final List<OidcProvider.User> users;
  private final List<String> redirectUris;

  public OidcProviderExtension(List<OidcProvider.User> users, List<String> redirectUris) {
    super(OidcProvider.class, "oidc-provider");
    this.users = List.copyOf(users);
    this.redirectUris = List.copyOf(redirectUris);
  }

  @Override
  protected Running<OidcProvider> start() throws InterruptedException {
    return OidcProviderProcess.start(users, redirectUris);
  }

  /** The provider started for the current test class. */
  public OidcProvider provider() {
    return current();
  }
}
