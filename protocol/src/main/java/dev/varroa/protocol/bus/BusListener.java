package dev.varroa.protocol.bus;

import io.nats.client.Connection;

/** What a component's parts hear about its bus connection. Callbacks run on a bus thread and must not block long. */
public interface BusListener {

  /** A new connection object: the first one, or one that replaced a connection jnats gave up on. Subscribe here. */
  default void connected(Connection connection) {
  }

  /** The same connection came back after an outage; jnats has resubscribed. */
  default void reconnected() {
  }

  default void disconnected() {
  }

  /** The server refused a subscription or publish of this connection (a NATS grant is missing). */
  default void permissionDenied(String detail) {
  }
}
