package dev.varroa.benchmarks.channel;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.GatewayPresence;
import dev.varroa.protocol.bus.v1.MiteRoute;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueOperation;
import java.io.IOException;
import java.util.Optional;

/** What the operator would read on the bus: routes in varroa_mite_routes and a gateway's presence entry. */
public final class BusProbe {

  private final Connection nats;

  public BusProbe(Connection nats) {
    this.nats = nats;
  }

  /** Messages in the routes bucket: one per key (history 1), delete markers included. Cheap enough to poll. */
  public long routeEntries() throws IOException, JetStreamApiException {
    return nats.keyValueManagement().getStatus(BusNames.MITE_ROUTES_BUCKET).getEntryCount();
  }

  /** Keys holding a live route (deleted ones excluded); lists every key, so call it once, not in a loop. */
  public int routeKeys() throws IOException, JetStreamApiException, InterruptedException {
    return nats.keyValue(BusNames.MITE_ROUTES_BUCKET).keys().size();
  }

  public Optional<MiteRoute> route(ControllerIdentity controller) throws IOException, JetStreamApiException {
    KeyValueEntry entry = nats.keyValue(BusNames.MITE_ROUTES_BUCKET).get(controller.routeKey());
    if (entry == null || entry.getOperation() != KeyValueOperation.PUT) {
      return Optional.empty();
    }
    return Optional.of(MiteRoute.parseFrom(entry.getValue()));
  }

  /** The stream count the gateway last published in varroa_gateways (refreshed every 10 s). */
  public Optional<GatewayPresence> presence(String gatewayId) throws IOException, JetStreamApiException {
    KeyValueEntry entry = nats.keyValue(BusNames.GATEWAYS_BUCKET).get(BusNames.token(gatewayId));
    if (entry == null || entry.getOperation() != KeyValueOperation.PUT) {
      return Optional.empty();
    }
    return Optional.of(GatewayPresence.parseFrom(entry.getValue()));
  }
}
