package dev.varroa.dashboard.http;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SameOriginCheckTest {

  private final SameOriginCheck check = new SameOriginCheck(URI.create("https://varroa.example.com/"));

  private static HttpServletRequest request(Map<String, String> headers) {
    return (HttpServletRequest) Proxy.newProxyInstance(SameOriginCheckTest.class.getClassLoader(),
        new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
          case "getHeader" -> headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase((String) args[0]))
              .map(Map.Entry::getValue).findFirst().orElse(null);
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }

  @Test
  void acceptsTheDashboardsOwnPages() {
    assertThat(check.refusal(request(Map.of("Sec-Fetch-Site", "same-origin",
        "Origin", "https://varroa.example.com")))).isEmpty();
    assertThat(check.refusal(request(Map.of("Origin", "https://varroa.example.com")))).isEmpty();
    assertThat(check.refusal(request(Map.of("Origin", "http://localhost:8080", "Host", "localhost:8080")))).isEmpty();
    // not a browser: no other site can have sent it in someone's name
    assertThat(check.refusal(request(Map.of()))).isEmpty();
  }

  @Test
  void refusesAnotherSite() {
    assertThat(check.refusal(request(Map.of("Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"))))
        .hasValueSatisfying(reason -> assertThat(reason).contains("cross-site"));
    assertThat(check.refusal(request(Map.of("Sec-Fetch-Site", "same-site")))).isPresent();
    assertThat(check.refusal(request(Map.of("Origin", "https://evil.example", "Host", "varroa.example.com"))))
        .hasValueSatisfying(reason -> assertThat(reason).contains("https://evil.example"));
    assertThat(check.refusal(request(Map.of("Origin", "null", "Host", "varroa.example.com")))).isPresent();
  }
}
