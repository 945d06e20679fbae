package dev.varroa.dashboard.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LoginRateLimitTest {

  private final AtomicLong now = new AtomicLong(1_000_000_000L);

  @Test
  void refusesTheStartBeyondTheCapAndSaysWhenToComeBack() {
    LoginRateLimit limit = new LoginRateLimit(3, now::get);
    for (int i = 0; i < 3; i++) {
      assertThat(limit.take("192.0.2.1")).as("start %s", i).isEmpty();
    }
    assertThat(limit.take("192.0.2.1")).hasValueSatisfying(wait ->
        assertThat(wait).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(20)));
    // another address has its own allowance
    assertThat(limit.take("192.0.2.2")).isEmpty();
  }

  @Test
  void refillsAtTheCapARate() {
    LoginRateLimit limit = new LoginRateLimit(60, now::get);
    for (int i = 0; i < 60; i++) {
      assertThat(limit.take("192.0.2.1")).isEmpty();
    }
    assertThat(limit.take("192.0.2.1")).isPresent();
    now.addAndGet(Duration.ofMillis(1001).toNanos());
    assertThat(limit.take("192.0.2.1")).isEmpty();
    assertThat(limit.take("192.0.2.1")).isPresent();
  }

  @Test
  void countsAnIpv6ClientByItsSlash64() {
    LoginRateLimit limit = new LoginRateLimit(1, now::get);
    assertThat(limit.take("2001:db8:1:2::1")).isEmpty();
    assertThat(limit.take("2001:db8:1:2:ffff::9")).as("same /64").isPresent();
    assertThat(limit.take("2001:db8:1:3::1")).as("another /64").isEmpty();
  }

  @Test
  void theSettingIsAPositiveWholeNumber() {
    assertThat(LoginRateLimit.Settings.fromEnv(Map.of()).perMinute()).isEqualTo(LoginRateLimit.DEFAULT_PER_MINUTE);
    assertThat(LoginRateLimit.Settings.fromEnv(Map.of("VARROA_BFF_LOGIN_RATE_LIMIT", " 5 ")).perMinute())
        .isEqualTo(5);
    for (String bad : new String[] {"0", "-1", "ten", "1.5"}) {
      assertThatThrownBy(() -> LoginRateLimit.Settings.fromEnv(Map.of("VARROA_BFF_LOGIN_RATE_LIMIT", bad)))
          .hasMessageContaining("VARROA_BFF_LOGIN_RATE_LIMIT").hasMessageContaining(bad);
    }
  }
}
