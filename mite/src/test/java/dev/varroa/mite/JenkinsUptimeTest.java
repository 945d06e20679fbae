package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class JenkinsUptimeTest {

  private static final Instant START = Instant.parse("2026-12-04T21:00:00.250Z");

  /** A clock the test moves. */
  private static final class MovedClock extends Clock {
    private Instant now = START;

    @Override
    public ZoneId getZone() {
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
  }

  private final MovedClock clock = new MovedClock();
  private final JenkinsUptime uptime = new JenkinsUptime(clock);

  @Test
  void isZeroUntilJenkinsFirstServes() {
    assertThat(uptime.notServing()).isZero();
    clock.now = START.plusSeconds(3);

    assertThat(uptime.serving("a1")).isEqualTo(Instant.parse("2026-12-04T21:00:03Z").toEpochMilli());
  }

  @Test
  void staysPutWhileJenkinsKeepsServing() {
    long first = uptime.serving("a1");
    clock.now = START.plusSeconds(60);

    assertThat(uptime.serving("a1")).isEqualTo(first);
    assertThat(uptime.serving("")).isEqualTo(first);
  }

  @Test
  void movesWhenJenkinsServesAgainAfterItDidNotAndNamesNoSession() {
    long first = uptime.serving("");
    clock.now = START.plusSeconds(20);
    assertThat(uptime.notServing()).isEqualTo(first);
    clock.now = START.plusSeconds(25);

    assertThat(uptime.serving("")).isEqualTo(Instant.parse("2026-12-04T21:00:25Z").toEpochMilli());
  }

  @Test
  void movesWhenANewSessionServesAfterJenkinsWasDown() {
    uptime.serving("a1");
    clock.now = START.plusSeconds(20);
    uptime.notServing();
    clock.now = START.plusSeconds(25);

    assertThat(uptime.serving("b2")).isEqualTo(Instant.parse("2026-12-04T21:00:25Z").toEpochMilli());
  }

  @Test
  void staysPutWhenTheSameJenkinsAnswersAgainAfterAPollWithoutAnswer() {
    long first = uptime.serving("a1");
    clock.now = START.plusSeconds(20);
    uptime.notServing();
    clock.now = START.plusSeconds(25);

    assertThat(uptime.serving("a1")).isEqualTo(first);
  }

  @Test
  void movesWhenTheSessionChangedBetweenTwoPolls() {
    uptime.serving("a1");
    clock.now = START.plusSeconds(30);

    assertThat(uptime.serving("b2")).isEqualTo(Instant.parse("2026-12-04T21:00:30Z").toEpochMilli());
    clock.now = START.plusSeconds(40);
    assertThat(uptime.serving("b2")).isEqualTo(Instant.parse("2026-12-04T21:00:30Z").toEpochMilli());
  }
}
