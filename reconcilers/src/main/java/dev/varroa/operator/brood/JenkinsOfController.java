package dev.varroa.operator.brood;

import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.MiteRoute;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.OneShot;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What the steps ask of a Controller's Jenkins, through its mite: what it observes, and one-shot commands. */
public interface JenkinsOfController {
  /** The mite's live route (its observed state inside), present while its stream is open. */
  Optional<MiteRoute> route(ControllerIdentity controller);

  /**
   * Queues a one-shot command; the same command id queued again within the queue's dedupe window is dropped, so a
   * step repeated after a lost answer does not act twice.
   */
  void oneShot(ControllerIdentity controller, OneShot.Action action, String commandId, Instant deadline);

  /** Through the control channel: routes from the gateways, commands on varroa_commands. */
  static JenkinsOfController of(ControlChannel channel) {
    Logger log = LoggerFactory.getLogger(JenkinsOfController.class);
    return new JenkinsOfController() {
      @Override
      public Optional<MiteRoute> route(ControllerIdentity controller) {
        return channel.routes().live(controller);
      }

      @Override
      public void oneShot(ControllerIdentity controller, OneShot.Action action, String commandId, Instant deadline) {
        Command command = Command.newBuilder().setCommandId(commandId).setDeadlineEpochMillis(deadline.toEpochMilli())
            .setOneShot(OneShot.newBuilder().setAction(action)).build();
        log.info("event=brood_command controller={} action={} command={}", controller.routeKey(), action, commandId);
        channel.queue().queue(controller, command).whenComplete((result, failure) -> {
          if (failure != null) {
            log.warn("event=brood_command_failed controller={} action={} error=\"{}\"", controller.routeKey(), action,
                failure.getMessage());
          } else {
            log.info("event=brood_command_result controller={} action={} outcome={} message=\"{}\"",
                controller.routeKey(), action, result.getOutcome(), result.getMessage());
          }
        });
      }
    };
  }

  /** Without a control channel: no mite is ever connected, steps that need Jenkins wait until they time out. */
  JenkinsOfController NONE = new JenkinsOfController() {
    @Override
    public Optional<MiteRoute> route(ControllerIdentity controller) {
      return Optional.empty();
    }

    @Override
    public void oneShot(ControllerIdentity controller, OneShot.Action action, String commandId, Instant deadline) {}
  };
}
