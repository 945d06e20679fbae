package dev.varroa.operator.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.DesiredState;
import dev.varroa.protocol.mite.v1.RunJob;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class CommandQueueTest {

  @Test
  void aTokenGrantMayWaitTwentyFourHoursAndTheStreamKeepsItThatLong() {
    assertThat(CommandQueue.TOKEN_GRANT_LIFETIME).isEqualTo(Duration.ofHours(24));
    assertThat(BusTopology.QUEUED_COMMAND_AGE).isEqualTo(CommandQueue.TOKEN_GRANT_LIFETIME);
  }

  @Test
  void refusesToQueueDesiredStateBecauseItCarriesCredentials() {
    // no connection is touched: the refusal comes before any publish
    CommandQueue queue = new CommandQueue(null, "local", new MiteRoutes(Clock.systemUTC(), key -> { }),
        ActivityPublisher.withoutBus("local", "operator"), Clock.systemUTC());
    Command desired = Command.newBuilder().setCommandId("c-1").setDesiredState(DesiredState.getDefaultInstance())
        .build();

    assertThatThrownBy(() -> queue.queue(new ControllerIdentity("ci", "sandbox", "uid-1"), desired))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("c-1").hasMessageContaining("ci.sandbox").hasMessageContaining("ControlChannel.send");
  }

  @Test
  void acceptsARunJobForItCarriesNoCredential() throws Exception {
    // no connection: the RunJob is accepted and its publish fails, naming what could not be queued
    CommandQueue queue = new CommandQueue(null, "local", new MiteRoutes(Clock.systemUTC(), key -> { }),
        ActivityPublisher.withoutBus("local", "operator"), Clock.systemUTC());
    Command run = Command.newBuilder().setCommandId("pipeline-run-1").setDeadlineEpochMillis(System.currentTimeMillis()
        + 60_000).setRunJob(RunJob.newBuilder().setJob("alpha/build")).build();

    CommandResult result = queue.queue(new ControllerIdentity("cells", "shared-0", "uid-1"), run).get();

    assertThat(result.getOutcome()).isEqualTo(CommandResult.Outcome.REJECTED);
    assertThat(result.getMessage()).contains("could not queue run_job alpha/build");
  }
}
