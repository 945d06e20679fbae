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

/**
 * {@link QuietDown} through the mite: one OneShot command each, queued on varroa_commands so it survives a dropped
 * stream or a restarted gateway, and run in the order queued (a cancel never overtakes its quiet-down).
 */
public final class ChannelQuietDown implements QuietDown {
  /** Quiet-down is one POST to Jenkins; a mite that cannot do it in this long is not going to. */
  static final Duration COMMAND_DEADLINE = Duration.ofMinutes(1);
  /** A late cancel is harmless and a lost one leaves Jenkins quiet: it may wait as long as the queue keeps it. */
  static final Duration CANCEL_DEADLINE = Duration.ofHours(24);
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
    Duration deadline = action == OneShot.Action.CANCEL_QUIET_DOWN ? CANCEL_DEADLINE : COMMAND_DEADLINE;
    Command command = Command.newBuilder()
        .setCommandId(UUID.randomUUID().toString())
        .setDeadlineEpochMillis(clock.instant().plus(deadline).toEpochMilli())
        .setOneShot(OneShot.newBuilder().setAction(action))
        .build();
    LOG.info("event=backup_quiet_down_command controller={} action={} command={}", controller.routeKey(), action,
        command.getCommandId());
    channel.queue().queue(controller, command).whenComplete((result, failure) -> {
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
