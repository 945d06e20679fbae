package dev.varroa.gateway.stream;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.BusConnection;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueOperation;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Whether a mite certificate's controller still exists: the operator records each Controller's UID in
 * varroa_controllers and removes it when the Controller is deleted. The gateway has no Kubernetes client, so this
 * record is what it checks; anything but a record with the certificate's UID refuses the stream (fail closed).
 */
final class LiveControllerCheck {

  private final BusConnection bus;
  private final String clusterName;

  LiveControllerCheck(BusConnection bus, String clusterName) {
    this.bus = bus;
    this.clusterName = clusterName;
  }

  /** Why this controller's certificate may not open a stream, or empty when its Controller exists with its UID. */
  Optional<String> refusal(ControllerIdentity controller) {
    String key = BusNames.liveControllerKey(clusterName, controller);
    KeyValueEntry entry;
    try {
      entry = bus.connection().keyValue(BusNames.LIVE_CONTROLLERS_BUCKET).get(key);
    } catch (Exception e) {
      return Optional.of("the gateway cannot read NATS bucket " + BusNames.LIVE_CONTROLLERS_BUCKET + " ("
          + e.getClass().getSimpleName() + "), so it cannot tell whether Controller " + controller.routeKey()
          + " exists; the mite retries");
    }
    if (entry == null || entry.getOperation() != KeyValueOperation.PUT || entry.getValue() == null) {
      return Optional.of("no Controller " + controller.routeKey() + " exists in cluster " + clusterName
          + " (deleted, or not yet reconciled by an operator of this version): its certificate opens no stream");
    }
    String uid = new String(entry.getValue(), StandardCharsets.UTF_8);
    if (!uid.equals(controller.uid())) {
      return Optional.of("Controller " + controller.routeKey() + " now has UID " + uid + " but the certificate names UID "
          + controller.uid() + " (a deleted Controller of the same name): the new Controller's pod registers anew");
    }
    return Optional.empty();
  }
}
