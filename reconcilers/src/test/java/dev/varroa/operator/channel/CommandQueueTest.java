package dev.varroa.operator.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.DesiredState;
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
}
