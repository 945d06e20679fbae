package dev.varroa.operator.backup;

import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.OneShot;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link QuietDown} through the mite: one OneShot command each, answered asynchronously. */
public final class ChannelQuietDown implements QuietDown {
  /** Quiet-down is one POST to Jenkins; a mite that cannot do it in this long is not going to. */
  static final Duration COMMAND_DEADLINE = Duration.ofMinutes(1);
  private static final Logger LOG = LoggerFactory.getLogger(ChannelQuietDown.class);

  private final ControlChannel channel;
  private final Clock clock;

  public ChannelQuietDown(ControlChannel channel, Clock clock) {
    this.channel = channel;
    this.clock = clock;
  }

  @Override
  public void start(ControllerIdentity controller) {
    send(controller, OneShot.Action.QUIET_DOWN);
  }

  @Override
  public void cancel(ControllerIdentity controller) {
    send(controller, OneShot.Action.CANCEL_QUIET_DOWN);
  }

  private void send(ControllerIdentity controller, OneShot.Action action) {
    Command command = Command.newBuilder()
        .setCommandId(UUID.randomUUID().toString())
        .setDeadlineEpochMillis(clock.instant().plus(COMMAND_DEADLINE).toEpochMilli())
        .setOneShot(OneShot.newBuilder().setAction(action))
        .build();
    LOG.info("event=backup_quiet_down_command controller={} action={} command={}", controller.routeKey(), action,
        command.getCommandId());
    channel.send(controller, command).whenComplete((result, failure) -> {
      if (failure != null) {
        LOG.warn("event=backup_quiet_down_failed controller={} action={} error=\"{}\"", controller.routeKey(), action,
            failure.getMessage());
      } else {
        LOG.info("event=backup_quiet_down_result controller={} action={} outcome={} message=\"{}\"",
            controller.routeKey(), action, result.getOutcome(), result.getMessage());
      }
    });
  }
}
