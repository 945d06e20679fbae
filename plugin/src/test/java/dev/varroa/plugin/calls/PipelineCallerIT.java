package dev.varroa.plugin.calls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.plugin.config.PluginSettings;
import dev.varroa.plugin.loopback.LoopbackClient;
import dev.varroa.plugin.loopback.LoopbackToken;
import dev.varroa.plugin.testing.MiteLoopbackStandIn;
import dev.varroa.plugin.testing.MiteLoopbackStandIn.CallAsk;
import dev.varroa.plugin.testing.MiteLoopbackStandIn.CallReply;
import dev.varroa.plugin.testing.SteppedClock;
import dev.varroa.protocol.builds.v1.PipelineCallAnswer;
import dev.varroa.protocol.builds.v1.PipelineCallRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The varroaRunPipeline step's core over real HTTP against a played mite loopback: the real {@link LoopbackClient}
 * asks, the stand-in answers as the test says, and the waits between questions move a stepped clock.
 */
class PipelineCallerIT {

  private static final String CALL_ID = "6f1c2a4e-7d55-4b8e-9a0f-3c2b1d0e9f87";
  private static final String URL = "https://varroa.example.com/ui/runs/run-b";

  @TempDir
  Path dir;

  private final SteppedClock clock = new SteppedClock(Instant.parse("2026-12-05T10:00:00Z"));
  private final List<Duration> pauses = new CopyOnWriteArrayList<>();
  private final List<String> log = new CopyOnWriteArrayList<>();
  private MiteLoopbackStandIn mite;
  private LoopbackClient client;
  private PipelineCaller caller;

  @BeforeEach
  void start() throws Exception {
    Path tokenFile = dir.resolve("loopback-token");
    mite = MiteLoopbackStandIn.start(tokenFile, "token");
    client = new LoopbackClient(PluginSettings.fromEnvironment(Map.of("VARROA_LOOPBACK_URL", mite.url().toString(),
        "VARROA_LOOPBACK_TOKEN_FILE", tokenFile.toString())), new LoopbackToken(tokenFile, clock));
    caller = new PipelineCaller(new PipelineCallLoopback() {
      @Override
      public PipelineCallAnswer call(PipelineCallRequest call) {
        return client.callPipeline(call);
      }

      @Override
      public PipelineCallAnswer status(String callId) {
        return client.pipelineCallStatus(callId);
      }
    }, clock, pause -> {
      pauses.add(pause);
      clock.advance(pause);
    });
  }

  @AfterEach
  void stop() {
    client.close();
    mite.close();
  }

  @Test
  void anAllowedCallReturnsSuccessAndPrintsTheCalledRunWithItsLink() throws Exception {
    // requested on the POST, then queued, running, finished: one state per GET
    List<PipelineCallAnswer> states = List.of(answer("requested"), answer("queued"),
        answer("running").toBuilder().setRunId("run-b").setBuildNumber(12).setUrl(URL).build(),
        answer("finished").toBuilder().setRunId("run-b").setBuildNumber(12).setUrl(URL).setResult("SUCCESS").build());
    AtomicInteger asked = new AtomicInteger();
    mite.answerPipelineCalls(ask -> CallReply.ok(states.get(asked.getAndIncrement())));

    CalledRun run = caller.call(CALL_ID, "run-a", "frontend/release", arguments(60), log::add);

    assertThat(run).isEqualTo(new CalledRun("core", "payments-ns", "payments", "deploy", "run-b", 12, "SUCCESS", URL));
    List<CallAsk> asks = mite.pipelineCallAsks();
    assertThat(asks).extracting(CallAsk::statusOnly).containsExactly(false, true, true, true);
    assertThat(asks.get(0).call()).isEqualTo(PipelineCallRequest.newBuilder().setCallId(CALL_ID).setRunId("run-a")
        .setJob("frontend/release").setTeam("payments").setPipeline("deploy").putParameters("VERSION", "1.4").build());
    assertThat(asks.subList(1, 4)).extracting(ask -> ask.call().getCallId()).containsOnly(CALL_ID);
    assertThat(pauses).containsOnly(PipelineCaller.POLL);
    assertThat(log).contains("Called pipeline payments-ns/payments/deploy in cluster core", "Call state: queued",
        "Called run: run-b (build #12)", "Called run's page: " + URL,
        "The called pipeline payments-ns/payments/deploy ended SUCCESS");
  }

  @Test
  void aCalledRunThatEndsFailureFailsTheStepNamingTheRunAndItsLink() {
    mite.answerPipelineCalls(ask -> CallReply.ok(ask.statusOnly()
        ? answer("finished").toBuilder().setRunId("run-b").setResult("FAILURE").setUrl(URL).build()
        : answer("requested")));

    assertThatThrownBy(() -> caller.call(CALL_ID, "run-a", "frontend/release", arguments(60), log::add))
        .isInstanceOf(PipelineCallFailed.class)
        .hasMessage("the called pipeline payments-ns/payments/deploy in cluster core ended FAILURE (run run-b, "
            + URL + ")");
  }

  @Test
  void aRefusedCallFailsTheStepWithTheRefusal() {
    String refusal = "Team payments-ns/payments does not let Team web/frontend call its pipelines"
        + " (spec.callableBy: [ops]); fix: add web/frontend to spec.callableBy";
    mite.answerPipelineCalls(ask -> CallReply.ok(answer("refused").toBuilder().setMessage(refusal).build()));

    assertThatThrownBy(() -> caller.call(CALL_ID, "run-a", "frontend/release", arguments(60), log::add))
        .isInstanceOf(PipelineCallFailed.class).hasMessage("refused: " + refusal);
    assertThat(mite.pipelineCallAsks()).hasSize(1);
  }

  @Test
  void aCallThatNeverRanFailsTheStepWithWhy() {
    mite.answerPipelineCalls(ask -> CallReply.ok(ask.statusOnly()
        ? answer("failed").toBuilder().setMessage("job payments/deploy does not exist on cell cell-1").build()
        : answer("requested")));

    assertThatThrownBy(() -> caller.call(CALL_ID, "run-a", "frontend/release", arguments(60), log::add))
        .isInstanceOf(PipelineCallFailed.class).hasMessage("job payments/deploy does not exist on cell cell-1");
  }

  @Test
  void aCallStillQueuedAtTheTimeoutFailsNamingItsStateAndRun() {
    mite.answerPipelineCalls(ask -> CallReply.ok(answer(ask.statusOnly() ? "queued" : "requested")));
    Instant started = clock.instant();

    assertThatThrownBy(() -> caller.call(CALL_ID, "run-a", "frontend/release", arguments(1), log::add))
        .isInstanceOf(PipelineCallFailed.class)
        .hasMessage("timed out after 1 min waiting for payments-ns/payments/deploy (state queued, run not known"
            + " yet); the called run is not cancelled, it goes on");
    assertThat(Duration.between(started, clock.instant())).isEqualTo(Duration.ofMinutes(1));
    // the POST, then one question every 2 s until the minute is over, the last one at the deadline
    assertThat(mite.pipelineCallAsks()).hasSize(1 + 30);
  }

  @Test
  void aCallRunningAtTheTimeoutNamesItsRun() {
    mite.answerPipelineCalls(ask -> CallReply.ok(ask.statusOnly()
        ? answer("running").toBuilder().setRunId("run-b").build() : answer("requested")));

    assertThatThrownBy(() -> caller.call(CALL_ID, "run-a", "frontend/release", arguments(1), log::add))
        .hasMessageStartingWith("timed out after 1 min waiting for payments-ns/payments/deploy (state running,"
            + " run run-b)");
  }

  @Test
  void noAnswerIsAskedAgainOnTheClaimsScheduleWithTheSameCallId() throws Exception {
    AtomicInteger posts = new AtomicInteger();
    AtomicInteger gets = new AtomicInteger();
    Function<CallAsk, CallReply> replies = ask -> {
      if (!ask.statusOnly()) {
        return posts.incrementAndGet() <= 2 ? CallReply.unavailable("the mite waited 4.5 s") : CallReply.ok(
            answer("requested"));
      }
      return gets.incrementAndGet() == 1 ? CallReply.unavailable("no gateway")
          : CallReply.ok(answer("finished").toBuilder().setRunId("run-b").setResult("SUCCESS").build());
    };
    mite.answerPipelineCalls(replies);

    CalledRun run = caller.call(CALL_ID, "run-a", "frontend/release", arguments(60), log::add);

    assertThat(run.result()).isEqualTo("SUCCESS");
    assertThat(mite.pipelineCallAsks()).extracting(ask -> ask.call().getCallId()).containsOnly(CALL_ID);
    assertThat(mite.pipelineCallAsks()).extracting(CallAsk::statusOnly).containsExactly(false, false, false, true,
        true);
    // 1 s and 2 s before the POST is answered; after a state, the 2 s poll; a GET without answer starts again at 1 s
    assertThat(pauses).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), PipelineCaller.POLL,
        Duration.ofSeconds(1));
    assertThat(log).anyMatch(line -> line.contains("the mite waited 4.5 s") && line.contains("asking again in"));
  }

  @Test
  void aMiteThatCannotBeReachedIsRetriedUntilTheTimeout() {
    mite.close();

    assertThatThrownBy(() -> caller.call(CALL_ID, "run-a", "frontend/release", arguments(1), log::add))
        .hasMessageStartingWith("timed out after 1 min waiting for payments/deploy (state none: no answer yet,"
            + " run not known yet)");
    assertThat(log).anyMatch(line -> line.contains("cannot connect to the mite"));
  }

  @Test
  void anInvalidArgumentFailsAtOnceWithTheMitesMessage() {
    mite.answerPipelineCalls(ask -> new CallReply(400, PipelineCallAnswer.newBuilder().setCode("INVALID_ARGUMENT")
        .setMessage("job is empty: a call needs the calling job's full name").build()));

    assertThatThrownBy(() -> caller.call(CALL_ID, "run-a", "frontend/release", arguments(60), log::add))
        .hasMessage("INVALID_ARGUMENT: job is empty: a call needs the calling job's full name");
    assertThat(mite.pipelineCallAsks()).hasSize(1);
  }

  private static PipelineCallArguments arguments(int timeoutMinutes) {
    return PipelineCallArguments.of("payments", "deploy", "", Map.of("VERSION", "1.4"), timeoutMinutes);
  }

  private static PipelineCallAnswer answer(String state) {
    return PipelineCallAnswer.newBuilder().setState(state).setCode("OK").setCluster("core")
        .setNamespace("payments-ns").setTeam("payments").setPipeline("deploy").build();
  }
}
