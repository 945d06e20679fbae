package dev.varroa.gateway.stream;

import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.GatewayPresence;
import io.nats.client.JetStreamApiException;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueOperation;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Keeps this gateway's entry in varroa_gateways fresh; the bucket forgets a gateway that stops refreshing. */
public final class PresenceBeacon {

  private static final Logger LOG = LoggerFactory.getLogger(PresenceBeacon.class);
  /** Well within the bucket's 30-second age (BusTopology.GATEWAY_PRESENCE_AGE): two refreshes may fail in a row. */
  public static final Duration PRESENCE_REFRESH_INTERVAL = Duration.ofSeconds(10);

  private final BusConnection bus;
  private final String gatewayId;
  private final MiteSessions sessions;
  private final Instant startedAt;
  private volatile boolean lastWriteFailed;

  public PresenceBeacon(BusConnection bus, String gatewayId, MiteSessions sessions, Clock clock) {
    this.bus = bus;
    this.gatewayId = gatewayId;
    this.sessions = sessions;
    this.startedAt = clock.instant();
  }

  public void refresh() {
    GatewayPresence presence = GatewayPresence.newBuilder()
        .setGatewayId(gatewayId)
        .setStartedAtEpochMillis(startedAt.toEpochMilli())
        .setStreams(sessions.size())
        .build();
    try {
      bus.keyValue(BusNames.GATEWAYS_BUCKET).put(BusNames.token(gatewayId), presence.toByteArray());
      if (lastWriteFailed) {
        LOG.info("event=presence_restored gateway={}", gatewayId);
      }
      lastWriteFailed = false;
    } catch (IOException | JetStreamApiException | RuntimeException e) {
      if (!lastWriteFailed) {
        LOG.warn("event=presence_write_failed gateway={} error=\"{}\"", gatewayId, e.getClass().getSimpleName());
      }
      lastWriteFailed = true;
    }
  }

  /** Removes the entry at a graceful stop so the operator need not wait for it to age out. */
  public void withdraw() {
    try {
      bus.keyValue(BusNames.GATEWAYS_BUCKET).delete(BusNames.token(gatewayId));
    } catch (IOException | JetStreamApiException | RuntimeException e) {
      LOG.warn("event=presence_withdraw_failed gateway={} error=\"{}\"", gatewayId, e.getClass().getSimpleName());
    }
  }

  /** Whether a gateway (this or another) is alive by its presence entry. */
  public boolean isPresent(String otherGatewayId) throws IOException, JetStreamApiException {
    KeyValueEntry entry = bus.keyValue(BusNames.GATEWAYS_BUCKET).get(BusNames.token(otherGatewayId));
    return entry != null && entry.getOperation() == KeyValueOperation.PUT;
  }
}
