package dev.varroa.dashboard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class CookieSecurityTest {

  @Test
  void httpsAndLocalhostKeepSecure() {
    assertThat(CookieSecurity.forPublicUrl(URI.create("https://ci.example.com")).attributes()).contains("; Secure");
    assertThat(CookieSecurity.forPublicUrl(URI.create("http://localhost:8080")).secure()).isTrue();
    assertThat(CookieSecurity.forPublicUrl(URI.create("http://127.0.0.1:8080")).secure()).isTrue();
  }

  @Test
  void aPlainHttpHostGetsCookiesABrowserKeeps() {
    // a browser drops a Secure cookie set over http://varroa-dashboard.varroa-system.svc, so no login completed
    CookieSecurity cookies = CookieSecurity.forPublicUrl(URI.create("http://varroa-dashboard.varroa-system.svc"));
    assertThat(cookies.secure()).isFalse();
    assertThat(cookies.attributes()).isEqualTo("; HttpOnly; SameSite=Lax");
  }
}
