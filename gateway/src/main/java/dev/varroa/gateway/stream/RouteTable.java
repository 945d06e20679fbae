package dev.varroa.gateway.stream;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.MiteRoute;
import io.nats.client.JetStreamApiException;
import io.nats.client.KeyValue;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueOperation;
import java.io.IOException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mite routes this gateway writes (bucket varroa_mite_routes, key = route key). Writes after the
 * first are compare-and-set on the entry this session wrote, so a gateway never overwrites or deletes
 * a route another stream (on this or another gateway) holds now.
 */
public final class RouteTable {

  private static final Logger LOG = LoggerFactory.getLogger(RouteTable.class);
  private static final int WRONG_LAST_SEQUENCE = 10071;

  private final BusConnection bus;
  private final String gatewayId;
  private final StreamDegradation degradation;

  public RouteTable(BusConnection bus, String gatewayId, StreamDegradation degradation) {
    this.bus = bus;
    this.gatewayId = gatewayId;
    this.degradation = degradation;
  }

  /** The newest stream of a controller wins: written unconditionally when its Hello arrives. */
  void claim(MiteSession session) {
    try {
      bucket().put(session.identity().routeKey(), route(session).toByteArray());
      LOG.info("event=route_claimed gateway={} controller={} session={}", gatewayId, session.identity().routeKey(),
          session.sessionId());
    } catch (IOException | JetStreamApiException | RuntimeException e) {
      LOG.warn("event=route_write_failed gateway={} controller={} step=claim error=\"{}\"", gatewayId,
          session.identity().routeKey(), e.toString());
    }
  }

  /** Rewrites the route (new observed state, degradation changed) if it is still this session's, or re-creates it if it vanished. */
  void refresh(MiteSession session) {
    if (!session.isOpen()) {
      return;
    }
    String key = session.identity().routeKey();
    try {
      KeyValue routes = bucket();
      KeyValueEntry entry = routes.get(key);
      if (entry == null || entry.getOperation() != KeyValueOperation.PUT) {
        routes.create(key, route(session).toByteArray());
      } else if (session.sessionId().equals(MiteRoute.parseFrom(entry.getValue()).getSessionId())) {
        routes.update(key, route(session).toByteArray(), entry.getRevision());
      } else {
        LOG.info("event=route_held_elsewhere gateway={} controller={} session={}", gatewayId, key, session.sessionId());
      }
    } catch (JetStreamApiException e) {
      if (e.getApiErrorCode() != WRONG_LAST_SEQUENCE) {
        LOG.warn("event=route_write_failed gateway={} controller={} step=refresh error=\"{}\"", gatewayId, key,
            e.toString());
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("event=route_write_failed gateway={} controller={} step=refresh error=\"{}\"", gatewayId, key,
          e.toString());
    }
  }

  /** Rewrites the route of every held stream, each in its session's order (degradation changed, bus is back). */
  public void refreshAll(MiteSessions sessions) {
    sessions.all().forEach(session -> session.serial().execute(() -> refresh(session)));
  }

  /** Deletes the route only while it still names this session. */
  void release(MiteSession session) {
    String key = session.identity().routeKey();
    try {
      KeyValue routes = bucket();
      KeyValueEntry entry = routes.get(key);
      if (entry == null || entry.getOperation() != KeyValueOperation.PUT) {
        return;
      }
      if (!session.sessionId().equals(MiteRoute.parseFrom(entry.getValue()).getSessionId())) {
        return;
      }
      routes.delete(key, entry.getRevision());
      LOG.info("event=route_released gateway={} controller={} session={}", gatewayId, key, session.sessionId());
    } catch (JetStreamApiException e) {
      if (e.getApiErrorCode() != WRONG_LAST_SEQUENCE) {
        LOG.warn("event=route_delete_failed gateway={} controller={} error=\"{}\"", gatewayId, key, e.toString());
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("event=route_delete_failed gateway={} controller={} error=\"{}\"", gatewayId, key, e.toString());
    }
  }

  /** The route the bus knows for this controller, whoever holds it. */
  public Optional<MiteRoute> lookup(ControllerIdentity controller) throws IOException, JetStreamApiException {
    KeyValueEntry entry = bucket().get(controller.routeKey());
    if (entry == null || entry.getOperation() != KeyValueOperation.PUT) {
      return Optional.empty();
    }
    try {
      return Optional.of(MiteRoute.parseFrom(entry.getValue()));
    } catch (InvalidProtocolBufferException e) {
      LOG.warn("event=route_unreadable controller={}", controller.routeKey());
      return Optional.empty();
    }
  }

  private KeyValue bucket() throws IOException {
    return bus.keyValue(BusNames.MITE_ROUTES_BUCKET);
  }

  private MiteRoute route(MiteSession session) {
    Optional<String> degraded = degradation.reason();
    return MiteRoute.newBuilder()
        .setController(session.identity().toRef())
        .setGatewayId(gatewayId)
        .setSessionId(session.sessionId())
        .setConnectedAtEpochMillis(session.connectedAt().toEpochMilli())
        .setMiteVersion(session.hello().getMiteVersion())
        .setPodName(session.hello().getPodName())
        .setCertificateNotAfterEpochMillis(session.certificateNotAfter().toEpochMilli())
        .setCertificatePem(session.certificatePem())
        .setProtocolVersion(session.protocolVersion())
        .setObserved(session.observed())
        .setStreamDegraded(degraded.isPresent())
        .setDegradedReason(degraded.orElse(""))
        .build();
  }
}
