package dev.varroa.gateway.command;

import dev.varroa.protocol.BusNames;

/**
 * The core-NATS subject on which the operator tells a gateway that one-shot commands are queued for a
 * mite it holds. Payload: the controller's ControllerRef, or nothing to mean "check every mite".
 */
public final class QueuedCommandNotices {

  private QueuedCommandNotices() {
  }

  public static String subject(String clusterName, String gatewayId) {
    return BusNames.gatewayQueuedNotices(clusterName, gatewayId);
  }
}
