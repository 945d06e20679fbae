package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.mite.v1.JenkinsToken;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class JenkinsBearerTest {

  private Instant now = Instant.parse("2026-01-01T00:00:00Z");
  private final Clock clock = new Clock() {
    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  };

  private static JenkinsToken token(String jwt, Instant expiresAt) {
    return JenkinsToken.newBuilder().setJwt(jwt).setExpiresAtEpochMillis(expiresAt.toEpochMilli()).build();
  }

  @Test
  void asksForTheNextTokenAtTwoThirdsOfItsLifetime() {
    JenkinsBearer bearer = new JenkinsBearer(clock);
    assertThat(bearer.refreshDue()).isTrue();

    bearer.update(token("a.b.c", now.plus(Duration.ofMinutes(60))));

    assertThat(bearer.refreshDue()).isFalse();
    now = now.plus(Duration.ofMinutes(39));
    assertThat(bearer.refreshDue()).isFalse();
    now = now.plus(Duration.ofMinutes(1));
    assertThat(bearer.refreshDue()).isTrue();
  }

  @Test
  void keepsTheLongerLivedTokenAndIgnoresEmptyOnes() {
    JenkinsBearer bearer = new JenkinsBearer(clock);
    bearer.update(token("newer", now.plus(Duration.ofMinutes(60))));

    assertThat(bearer.update(token("older", now.plus(Duration.ofMinutes(30))))).isFalse();
    assertThat(bearer.update(token("", now.plus(Duration.ofMinutes(90))))).isFalse();
    assertThat(bearer.jwt()).contains("newer");
    assertThat(bearer.toString()).doesNotContain("newer");
  }
}
