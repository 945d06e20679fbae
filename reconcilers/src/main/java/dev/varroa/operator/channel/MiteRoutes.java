package dev.varroa.operator.channel;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.MiteRoute;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.KeyValue;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueOperation;
import io.nats.client.api.KeyValueWatcher;
import io.nats.client.impl.NatsKeyValueWatchSubscription;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the gateways report about mite streams, kept current by watching the routes and presence
 * buckets. A route counts only while its gateway's presence is fresh: a killed gateway leaves its
 * routes behind, and those must read as lost, not connected.
 */
public final class MiteRoutes implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MiteRoutes.class);

  private final Clock clock;
  private final Consumer<String> changed;
  private final Map<String, KeyValueEntry> routes = new ConcurrentHashMap<>();
  private final Map<String, Instant> gatewaySeen = new ConcurrentHashMap<>();
  private final Set<String> staleGateways = ConcurrentHashMap.newKeySet();
  private NatsKeyValueWatchSubscription routeWatch;
  private NatsKeyValueWatchSubscription presenceWatch;

  /** @param changed called with the route key (namespace.name) of every route whose reading changed */
  public MiteRoutes(Clock clock, Consumer<String> changed) {
    this.clock = clock;
    this.changed = changed;
  }

  void start(Connection nats) throws IOException, JetStreamApiException, InterruptedException {
    KeyValue routeBucket = nats.keyValue(BusNames.MITE_ROUTES_BUCKET);
    KeyValue presenceBucket = nats.keyValue(BusNames.GATEWAYS_BUCKET);
    presenceWatch = presenceBucket.watchAll(new Watcher(this::onPresence));
    routeWatch = routeBucket.watchAll(new Watcher(this::onRoute));
  }

  private void onPresence(KeyValueEntry entry) {
    if (entry.getOperation() == KeyValueOperation.PUT) {
      gatewaySeen.put(entry.getKey(), clock.instant());
      if (staleGateways.remove(entry.getKey())) {
        notifyRoutesOf(entry.getKey());
      }
    } else {
      gatewaySeen.remove(entry.getKey());
      notifyRoutesOf(entry.getKey());
    }
  }

  private void onRoute(KeyValueEntry entry) {
    if (entry.getOperation() == KeyValueOperation.PUT) {
      routes.put(entry.getKey(), entry);
    } else {
      routes.remove(entry.getKey());
    }
    changed.accept(entry.getKey());
  }

  /** Marks gateways whose presence went quiet and tells the Controllers they held; call periodically. */
  public void expireSilentGateways() {
    Instant cutoff = clock.instant().minus(BusTopology.GATEWAY_PRESENCE_AGE);
    gatewaySeen.forEach((gateway, seen) -> {
      if (seen.isBefore(cutoff) && staleGateways.add(gateway)) {
        LOG.info("event=gateway_silent gateway={} last_seen={}", gateway, seen);
        notifyRoutesOf(gateway);
      }
    });
  }

  private void notifyRoutesOf(String gateway) {
    routes.forEach((key, entry) -> parse(entry).filter(r -> BusNames.token(r.getGatewayId()).equals(gateway))
        .ifPresent(r -> changed.accept(key)));
  }

  /** The live route of this controller: present, for this UID, held by a gateway that is alive. */
  public Optional<MiteRoute> live(ControllerIdentity controller) {
    return Optional.ofNullable(routes.get(controller.routeKey())).flatMap(MiteRoutes::parse)
        .filter(r -> r.getController().getUid().equals(controller.uid()))
        .filter(r -> alive(r.getGatewayId()));
  }

  /** The gateways whose presence is fresh, as their presence keys (subject tokens). */
  public Set<String> liveGateways() {
    Set<String> live = new TreeSet<>(gatewaySeen.keySet());
    live.removeAll(staleGateways);
    return live;
  }

  private boolean alive(String gatewayId) {
    String key = BusNames.token(gatewayId);
    return gatewaySeen.containsKey(key) && !staleGateways.contains(key);
  }

  private static Optional<MiteRoute> parse(KeyValueEntry entry) {
    try {
      return Optional.of(MiteRoute.parseFrom(entry.getValue()));
    } catch (InvalidProtocolBufferException e) {
      LOG.warn("event=route_unreadable key={} error={}", entry.getKey(), e.getMessage());
      return Optional.empty();
    }
  }

  @Override
  public void close() {
    for (NatsKeyValueWatchSubscription watch : new NatsKeyValueWatchSubscription[] {routeWatch, presenceWatch}) {
      if (watch != null) {
        watch.unsubscribe();
      }
    }
  }

  private record Watcher(Consumer<KeyValueEntry> onEntry) implements KeyValueWatcher {
    @Override
    public void watch(KeyValueEntry entry) {
      onEntry.accept(entry);
    }

    @Override
    public void endOfData() {
      // the initial values arrive as ordinary entries; nothing waits for the end
    }
  }
}
