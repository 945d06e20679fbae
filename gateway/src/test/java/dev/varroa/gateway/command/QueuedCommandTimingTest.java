package dev.varroa.gateway.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.gateway.GatewaySettings;
import dev.varroa.protocol.bus.v1.QueuedCommand;
import dev.varroa.protocol.bus.v1.QueuedJenkinsTokenGrant;
import dev.varroa.protocol.mite.v1.Command;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The seed's numbers: a 60 s ack wait extended every 15 s, and a token grant kept at most 24 hours. */
class QueuedCommandTimingTest {

  private static final Instant QUEUED = Instant.parse("2026-12-01T08:00:00Z");

  @Test
  void aGatewayExtendsItsSixtySecondAckWaitEveryFifteenSecondsByDefault() {
    GatewaySettings built = GatewaySettings.of("gw", "nats://127.0.0.1:4222", Path.of("ca.pem"), Path.of("ca.key"));
    GatewaySettings fromEnv = GatewaySettings.fromEnv(Map.of("VARROA_NATS_URL", "nats://127.0.0.1:4222",
        "VARROA_CA_CERT_FILE", "ca.pem", "VARROA_CA_KEY_FILE", "ca.key"));

    assertThat(GatewaySettings.QUEUED_COMMAND_ACK_WAIT).isEqualTo(Duration.ofSeconds(60));
    assertThat(GatewaySettings.ACK_PROGRESS_INTERVAL).isEqualTo(Duration.ofSeconds(15));
    for (GatewaySettings settings : new GatewaySettings[] {built, fromEnv}) {
      assertThat(settings.queuedCommandAckWait()).isEqualTo(Duration.ofSeconds(60));
      assertThat(settings.ackProgressInterval()).isEqualTo(Duration.ofSeconds(15));
    }
  }

  @Test
  void aTokenGrantExpiresTwentyFourHoursAfterItWasQueuedEvenWithALaterDeadline() {
    assertThat(QueuedTokenGrants.GRANT_MAX_QUEUED_AGE).isEqualTo(Duration.ofHours(24));

    assertThat(QueuedTokenGrants.expiry(grant(QUEUED.plus(Duration.ofDays(3)))))
        .isEqualTo(QUEUED.plus(Duration.ofHours(24)));
  }

  @Test
  void aTokenGrantWithAnEarlierDeadlineExpiresAtThatDeadline() {
    assertThat(QueuedTokenGrants.expiry(grant(QUEUED.plus(Duration.ofHours(2)))))
        .isEqualTo(QUEUED.plus(Duration.ofHours(2)));
  }

  @Test
  void aTokenGrantThatSaysNeitherWhenNorUntilWhenHasExpired() {
    QueuedCommand bare = QueuedCommand.newBuilder().setCommand(Command.newBuilder().setCommandId("g"))
        .setJenkinsTokenGrant(QueuedJenkinsTokenGrant.getDefaultInstance()).build();

    assertThat(QueuedTokenGrants.expiry(bare)).isEqualTo(Instant.EPOCH);
  }

  private static QueuedCommand grant(Instant deadline) {
    return QueuedCommand.newBuilder()
        .setCommand(Command.newBuilder().setCommandId("grant-1").setDeadlineEpochMillis(deadline.toEpochMilli()))
        .setJenkinsTokenGrant(QueuedJenkinsTokenGrant.newBuilder().setReason("test"))
        .setQueuedAtEpochMillis(QUEUED.toEpochMilli())
        .build();
  }
}
