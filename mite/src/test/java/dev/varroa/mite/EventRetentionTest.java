package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.RunQueued;
import dev.varroa.protocol.mite.v1.EventsAcknowledged;
import dev.varroa.protocol.mite.v1.GatewayMessage;
import dev.varroa.protocol.mite.v1.MiteMessage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EventRetentionTest {

  private final EventRetention retention = new EventRetention(16L * 1024 * 1024, Clock.systemUTC());

  /** A stream that keeps what it is sent. */
  private static final class Recorded implements ChannelSession.StreamLink {
    final List<MiteMessage> sent = new CopyOnWriteArrayList<>();

    @Override
    public boolean send(MiteMessage message) {
      sent.add(message);
      return true;
    }

    List<BuildEvent> events() {
      return sent.stream().flatMap(m -> m.getEvents().getEventsList().stream()).toList();
    }
  }

  @AfterEach
  void tearDown() {
    retention.close();
  }

  private static BuildEvent event(long sequence, int causeBytes) {
    return BuildEvent.newBuilder().setRunId("run-a").setSequence(sequence).setJob("team/app")
        .setRunQueued(RunQueued.newBuilder().setQueueId(sequence)
            .setCause(ByteString.copyFrom(new byte[causeBytes]).toStringUtf8()))
        .build();
  }

  private static Instant soon() {
    return Instant.now().plusSeconds(5);
  }

  @Test
  void splitsForwardedBatchesAtOneMebibyte() throws Exception {
    Recorded stream = new Recorded();
    retention.welcomed(stream);
    List<BuildEvent> big = IntStream.rangeClosed(1, 3).mapToObj(i -> event(i, 400 * 1024)).toList();

    retention.admit(big, soon());

    await().atMost(Duration.ofSeconds(5)).until(() -> stream.events().size() == 3);
    assertThat(stream.sent).extracting(m -> m.getEvents().getEventsCount()).containsExactly(2, 1);
    assertThat(stream.sent).allMatch(m -> m.getEvents().getSerializedSize() <= EventRetention.BATCH_BYTES);
    assertThat(stream.events()).isEqualTo(big);
  }

  @Test
  void keepsADuplicateOnceAndReleasesOnlyWhatTheGatewayAcknowledged() throws Exception {
    EventRetention.Admission first = retention.admit(List.of(event(1, 10), event(2, 10), event(1, 10)), soon());

    assertThat(first.added()).isEqualTo(2);
    assertThat(first.duplicates()).isEqualTo(1);
    assertThat(first.held()).containsExactly(EventRetention.key(event(1, 10)), EventRetention.key(event(2, 10)));
    assertThat(retention.retainedBytes()).isEqualTo(2L * EventRetention.heldBytes(event(1, 10)));

    retention.received(GatewayMessage.newBuilder().setEventsAck(EventsAcknowledged.newBuilder()
        .addKeys(EventRetention.key(event(2, 10)))).build());

    assertThat(retention.retainedEvents()).isEqualTo(1);
    assertThat(retention.awaitAcknowledged(first.held(), Instant.now()))
        .containsExactly(EventRetention.key(event(2, 10)));
  }

  @Test
  void replaysEverythingRetainedOnANewStreamBeforeLaterEvents() throws Exception {
    Recorded old = new Recorded();
    retention.welcomed(old);
    retention.admit(List.of(event(1, 10), event(2, 10)), soon());
    await().atMost(Duration.ofSeconds(5)).until(() -> old.events().size() == 2);
    retention.ended(old);
    retention.admit(List.of(event(3, 10)), soon());

    Recorded next = new Recorded();
    retention.welcomed(next);
    retention.admit(List.of(event(4, 10)), soon());

    await().atMost(Duration.ofSeconds(5)).until(() -> next.events().size() == 4);
    assertThat(next.events()).extracting(BuildEvent::getSequence).containsExactly(1L, 2L, 3L, 4L);
    assertThat(old.events()).hasSize(2);
  }

  @Test
  void refusesTheRestOfABatchThatFindsNoRoomByTheDeadline() throws Exception {
    EventRetention small = new EventRetention(2L * EventRetention.heldBytes(event(1, 10)), Clock.systemUTC());
    try {
      EventRetention.Admission admission = small.admit(List.of(event(1, 10), event(2, 10), event(3, 10),
          event(4, 10)), Instant.now());

      assertThat(admission.added()).isEqualTo(2);
      assertThat(admission.refused()).isEqualTo(2);
      assertThat(small.awaitRoom(Instant.now())).isFalse();
    } finally {
      small.close();
    }
  }
}
