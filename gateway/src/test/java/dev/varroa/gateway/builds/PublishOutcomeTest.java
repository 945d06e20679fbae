package dev.varroa.gateway.builds;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.gateway.builds.PublishOutcome.Result;
import dev.varroa.protocol.DurationText;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PublishOutcomeTest {

  @Test
  void aSplitGroupIsStoredOnlyWhenEveryPartIs() {
    PublishOutcome stored = new PublishOutcome(Result.PUBLISHED, 1, null);
    PublishOutcome duplicate = new PublishOutcome(Result.DUPLICATE, 2, "no JetStream acknowledgement within 2 s");
    PublishOutcome expired = new PublishOutcome(Result.EXPIRED, 5, "maximum bytes exceeded");

    assertThat(PublishOutcome.combine(stored, duplicate).stored()).isTrue();
    assertThat(PublishOutcome.combine(stored, duplicate).attempts()).isEqualTo(3);
    PublishOutcome failed = PublishOutcome.combine(duplicate, expired);
    assertThat(failed.result()).isEqualTo(Result.EXPIRED);
    assertThat(failed.stored()).isFalse();
    assertThat(failed.lastFailure()).isEqualTo("maximum bytes exceeded");
    assertThat(new PublishOutcome(Result.ABANDONED, 1, null).stored()).isFalse();
  }

  @Test
  void writesWaitsAsSecondsTheWayTheSettingsTakeThem() {
    assertThat(DurationText.seconds(Duration.ofSeconds(10))).isEqualTo("10 s");
    assertThat(DurationText.seconds(Duration.ofMillis(2500))).isEqualTo("2.5 s");
    assertThat(DurationText.seconds(Duration.ofMillis(750))).isEqualTo("0.75 s");
  }
}
