package dev.varroa.testfixtures.oidc;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The fixture starts the real provider: discovery names its issuer and the endpoints a login needs. */
class OidcProviderIT {

  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(
      List.of(new OidcProvider.User("u1", "alice", "alice-password", "alice@example.com")),
      List.of("http://127.0.0.1:8080/auth/callback"));

  @Test
  void discoveryNamesTheIssuerAndItsEndpoints() throws Exception {
    OidcProvider provider = OIDC.provider();
    HttpResponse<String> discovery = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(provider.discoveryUrl())).build(), HttpResponse.BodyHandlers.ofString());

    assertThat(discovery.statusCode()).isEqualTo(200);
    assertThat(discovery.body()).contains("\"issuer\":\"" + provider.issuer() + "\"")
        .contains("authorization_endpoint").contains("token_endpoint").contains("jwks_uri")
        .contains("S256");
  }
}
