package dev.varroa.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.grpc.Status;
import io.nats.client.Connection;
import io.nats.client.Subscription;
import io.nats.client.api.DiscardPolicy;
import io.nats.client.api.RetentionPolicy;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A varroa_builds without room: made here with a tiny max_bytes before the gateways start (ensure leaves an
 * existing stream alone), so JetStream refuses groups with "maximum bytes exceeded" as a full stream would.
 */
class EventPublishWaitIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  @TempDir
  static Path directory;

  private static final long STREAM_BYTES = 4096;
  private static final Duration SHORT_WAIT = Duration.ofMillis(1500);

  private static CertificateAuthority ca;
  private static Gateway impatient;
  private static Gateway patient;
  private static Connection nats;
  private static TokenIssuer tokens;

  @BeforeAll
  static void startGateways() throws Exception {
    nats = NATS.server().connect();
    nats.jetStreamManagement().addStream(StreamConfiguration.builder()
        .name(BusNames.BUILDS_STREAM)
        .subjects(BusNames.buildsFilter())
        .retentionPolicy(RetentionPolicy.Interest)
        .discardPolicy(DiscardPolicy.New)
        .maxBytes(STREAM_BYTES)
        .duplicateWindow(BusTopology.BUILD_EVENT_DEDUPE_WINDOW)
        .storageType(StorageType.File)
        .build());
    ca = CertificateAuthority.createFiles(directory.resolve("ca.pem"), directory.resolve("ca-key.pem"));
    impatient = Gateway.start(settings("gateway-impatient").withEventPublishWait(SHORT_WAIT));
    patient = Gateway.start(settings("gateway-patient"));
    tokens = new TokenIssuer(nats);
  }

  @AfterAll
  static void stopGateways() throws Exception {
    for (AutoCloseable closeable : new AutoCloseable[] {impatient, patient, nats}) {
      if (closeable != null) {
        closeable.close();
      }
    }
  }

  private static GatewaySettings settings(String id) {
    return GatewaySettings.of(id, NATS.server().url(), directory.resolve("ca.pem"), directory.resolve("ca-key.pem"))
        .withListen("127.0.0.1", 0)
        .withTlsNames(List.of("localhost"), List.of("127.0.0.1"));
  }

  @Test
  void endsTheStreamUnavailableOnceThePublishWaitPassesWithoutRoom() throws Exception {
    TestMite mite = TestMite.enroll(impatient, ca, tokens, RegistrationIT.newController());
    // Bigger than the whole stream: no purge or acknowledgement ever makes room for it.
    List<BuildEvent> events = BuildEvents.run("run-" + UUID.randomUUID(), 20, 400);
    try (MiteStream stream = mite.connect(impatient, ca)) {
      stream.hello();

      long started = System.nanoTime();
      stream.send(BuildEvents.batch(events));
      Status status = stream.closed().get(SHORT_WAIT.toMillis() + 10_000, TimeUnit.MILLISECONDS);
      Duration closedAfter = Duration.ofNanos(System.nanoTime() - started);

      assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
      assertThat(status.getDescription())
          .contains("event publish waited 1.5 s")
          .contains("VARROA_EVENT_PUBLISH_WAIT")
          .contains("maximum bytes exceeded");
      assertThat(closedAfter).isGreaterThanOrEqualTo(SHORT_WAIT);
      assertThat(stream.nothingReceived()).as("no acknowledgement for an unpublished group").isTrue();
      assertThat(BuildEvents.stored(nats, BusNames.builds(mite.identity()))).isZero();
    }
  }

  @Test
  void retriesUntilRoomFreesUpAndAcknowledgesOnlyThen() throws Exception {
    TestMite mite = TestMite.enroll(patient, ca, tokens, RegistrationIT.newController());
    String subject = BusNames.builds(mite.identity());
    nats.jetStream().publish("varroa.builds.filler.room", new byte[3500]);
    List<BuildEvent> events = BuildEvents.run("run-" + UUID.randomUUID(), 3, 200);
    Subscription attempts = nats.subscribe(subject);
    nats.flush(Duration.ofSeconds(5));
    try (MiteStream stream = mite.connect(patient, ca)) {
      stream.hello();

      stream.send(BuildEvents.batch(events));
      // Every attempt is a message on the subject; the stream refuses each while the filler holds the room.
      await().atMost(Duration.ofSeconds(5)).until(() -> attempts.getPendingMessageCount() >= 3);
      assertThat(stream.nothingReceived()).as("no acknowledgement while the stream refuses the group").isTrue();
      nats.jetStreamManagement().purgeStream(BusNames.BUILDS_STREAM);

      assertThat(stream.next(Duration.ofSeconds(10)).getEventsAck().getKeysList())
          .containsExactlyElementsOf(BuildEvents.keys(events));
      assertThat(BuildEvents.stored(nats, subject)).isEqualTo(1);
      assertThat(stream.closed()).isNotDone();
    } finally {
      attempts.unsubscribe();
    }
  }
}
