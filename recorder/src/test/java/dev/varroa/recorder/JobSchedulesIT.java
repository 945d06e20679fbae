package dev.varroa.recorder;

import static dev.varroa.recorder.BuildEvents.publish;
import static dev.varroa.recorder.BuildEvents.schedule;
import static dev.varroa.recorder.BuildEvents.schedules;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.JobSchedules;
import dev.varroa.protocol.bus.v1.JobSchedulesRequest;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.postgres.PostgresServer;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import io.nats.client.Connection;
import io.nats.client.Message;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The recorder answers an operator's request for a controller's timer triggers from PostgreSQL, over NATS. */
class JobSchedulesIT {
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

  private static final Duration ANSWER_WITHIN = Duration.ofSeconds(5);
  private static final Duration RECORDED_WITHIN = Duration.ofSeconds(20);
  private static Recorder recorder;
  private static Connection nats;

  @BeforeAll
  static void startRecorder() throws Exception {
    PostgresServer postgres = POSTGRES.server();
    recorder = Recorder.start(RecorderSettings.of(postgres.jdbcUrl(), postgres.user(), postgres.password(),
        NATS.server().url()).withHealthPort(0));
    nats = NATS.server().connect();
  }

  @AfterAll
  static void stopRecorder() throws Exception {
    if (nats != null) {
      nats.close();
    }
    if (recorder != null) {
      recorder.close();
    }
  }

  private static JobSchedules ask(ControllerIdentity controller) throws Exception {
    Message reply = nats.request(BusNames.JOB_SCHEDULES_SUBJECT, JobSchedulesRequest.newBuilder()
        .setController(controller.toRef()).setCluster("core").build().toByteArray(), ANSWER_WITHIN);
    assertThat(reply).as("an answer on " + BusNames.JOB_SCHEDULES_SUBJECT).isNotNull();
    return JobSchedules.parseFrom(reply.getData());
  }

  @Test
  void answersUnknownForAControllerThatNeverReportedSchedules() throws Exception {
    JobSchedules answer = ask(new ControllerIdentity("ci", "quiet", UUID.randomUUID().toString()));

    assertThat(answer.getKnown()).isFalse();
    assertThat(answer.getJobsList()).isEmpty();
    assertThat(answer.getError()).isEmpty();
  }

  @Test
  void answersTheLatestInventoryOfTheControllerAskedFor() throws Exception {
    ControllerIdentity controller = new ControllerIdentity("ci", "nightly", UUID.randomUUID().toString());
    ControllerIdentity neighbour = new ControllerIdentity("ci", "other", UUID.randomUUID().toString());
    publish(nats, neighbour, schedules(neighbour, 1_000, schedule("theirs", "H * * * *")));
    publish(nats, controller, schedules(controller, 1_000, schedule("old", "@hourly")));
    publish(nats, controller, schedules(controller, 2_000, schedule("team/app/main", "TZ=Europe/Paris", "H 3 * * 1-5"),
        schedule("team/docs", "@midnight")));

    await().atMost(RECORDED_WITHIN).until(() -> ask(controller).getObservedAtEpochMillis() == 2_000);
    JobSchedules answer = ask(controller);

    assertThat(answer.getKnown()).isTrue();
    assertThat(answer.getJobsList()).extracting(j -> j.getJob()).containsExactly("team/app/main", "team/docs");
    assertThat(answer.getJobs(0).getTimerSpecsList()).containsExactly("TZ=Europe/Paris", "H 3 * * 1-5");
    assertThat(answer.getJobs(1).getTimerSpecsList()).containsExactly("@midnight");
  }

  @Test
  void answersAMalformedRequestWithAnErrorRatherThanSilence() throws Exception {
    Message reply = nats.request(BusNames.JOB_SCHEDULES_SUBJECT, "not protobuf \u0000\u00ff".getBytes(
        StandardCharsets.ISO_8859_1), ANSWER_WITHIN);

    assertThat(reply).isNotNull();
    assertThat(JobSchedules.parseFrom(reply.getData()).getError()).isNotEmpty();
  }
}
