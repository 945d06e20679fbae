package dev.varroa.dashboard.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Proxy;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class TrustedProxiesTest {

  /** A request from peer carrying these X-Forwarded-For headers; nothing else is read. */
  private static HttpServletRequest request(String peer, String... forwardedFor) {
    return (HttpServletRequest) Proxy.newProxyInstance(TrustedProxiesTest.class.getClassLoader(),
        new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
          case "getRemoteAddr" -> peer;
          case "getHeaders" -> Collections.enumeration("X-Forwarded-For".equalsIgnoreCase((String) args[0])
              ? List.of(forwardedFor) : List.<String>of());
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }

  @Test
  void aPeerNotTrustedIsTheSourceWhateverItForwards() {
    TrustedProxies proxies = TrustedProxies.parse("VARROA_BFF_TRUSTED_PROXIES", "10.0.0.0/8");
    assertThat(proxies.source(request("192.0.2.7", "203.0.113.1"))).isEqualTo("192.0.2.7");
    assertThat(TrustedProxies.none().source(request("10.1.1.1", "203.0.113.1"))).isEqualTo("10.1.1.1");
  }

  @Test
  void aTrustedProxyNamesItsClientAsTheRightMostUntrustedAddress() {
    TrustedProxies proxies = TrustedProxies.parse("VARROA_BFF_TRUSTED_PROXIES", "10.0.0.0/8, 192.168.1.5");
    // the client may put anything on the left; the proxies append what they saw
    assertThat(proxies.source(request("10.1.1.1", "6.6.6.6, 203.0.113.1, 192.168.1.5"))).isEqualTo("203.0.113.1");
    assertThat(proxies.source(request("10.1.1.1", "6.6.6.6", "203.0.113.1"))).isEqualTo("203.0.113.1");
    assertThat(proxies.source(request("10.1.1.1"))).isEqualTo("10.1.1.1");
  }

  @Test
  void ipv6BlocksMatch() {
    TrustedProxies proxies = TrustedProxies.parse("VARROA_BFF_TRUSTED_PROXIES", "fd00::/8");
    assertThat(proxies.source(request("fd12::1", "2001:db8::5"))).isEqualTo("2001:db8::5");
    assertThat(proxies.source(request("fe80::1", "2001:db8::5"))).isEqualTo("fe80::1");
  }

  @Test
  void refusesWhatIsNotAnAddressOrBlockNamingTheSetting() {
    for (String bad : new String[] {"proxy.example", "10.0.0.0/33", "10.0.0.0/x", "cafe"}) {
      assertThatThrownBy(() -> TrustedProxies.parse("VARROA_BFF_TRUSTED_PROXIES", bad))
          .hasMessageContaining("VARROA_BFF_TRUSTED_PROXIES").hasMessageContaining(bad);
    }
  }
}
