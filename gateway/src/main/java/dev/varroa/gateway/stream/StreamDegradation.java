package dev.varroa.gateway.stream;

import dev.varroa.protocol.bus.BusListener;
import io.nats.client.Connection;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the streams this gateway holds can use the bus (MiteStreamDegraded). A lost NATS connection
 * or a denied subscription degrades them; the routes are rewritten when the state changes and the
 * bus is writable, so the operator reads it from the route.
 */
public final class StreamDegradation implements BusListener {

  private static final Logger LOG = LoggerFactory.getLogger(StreamDegradation.class);

  private final String gatewayId;
  private volatile Consumer<String> onChange = reason -> { };
  private volatile boolean disconnected;
  private volatile String denied;

  public StreamDegradation(String gatewayId) {
    this.gatewayId = gatewayId;
  }

  /** Called with the current reason (empty string when healthy) whenever it changes and routes should be rewritten. */
  public void onChange(Consumer<String> listener) {
    this.onChange = listener;
  }

  /** Why the held streams are degraded, or empty when they are not. */
  public Optional<String> reason() {
    String deniedNow = denied;
    if (deniedNow != null) {
      return Optional.of("NATS denied the gateway (" + deniedNow + "): grant the gateway's NATS user this permission; "
          + "commands wait while the stream stays connected");
    }
    if (disconnected) {
      return Optional.of("the gateway lost its NATS connection: check NATS availability; commands wait while the "
          + "stream stays connected");
    }
    return Optional.empty();
  }

  @Override
  public void connected(Connection connection) {
    healthy();
  }

  @Override
  public void reconnected() {
    healthy();
  }

  @Override
  public void disconnected() {
    disconnected = true;
  }

  @Override
  public void permissionDenied(String detail) {
    if (Objects.equals(denied, detail)) {
      return;
    }
    denied = detail;
    LOG.warn("event=stream_degraded gateway={} reason=\"{}\"", gatewayId, detail);
    changed();
  }

  // A fresh connection resubscribes everything; a violation that persists is reported again right after.
  private void healthy() {
    boolean wasDegraded = disconnected || denied != null;
    disconnected = false;
    denied = null;
    if (wasDegraded) {
      LOG.info("event=stream_degradation_cleared gateway={}", gatewayId);
    }
    changed();
  }

  private void changed() {
    onChange.accept(reason().orElse(""));
  }
}
