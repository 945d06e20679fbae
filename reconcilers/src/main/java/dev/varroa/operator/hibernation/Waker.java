package dev.varroa.operator.hibernation;

import dev.varroa.api.v1alpha1.Controller;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.time.Clock;

/**
 * The waker as one operator replica runs it: the {@link WakerServer} and what it answers from, informers of every
 * Controller, of the waker routes and of the kept deliveries (their sizes), all in every namespace.
 */
public final class Waker implements AutoCloseable {
  private final SharedIndexInformer<Controller> controllers;
  private final SharedIndexInformer<EndpointSlice> routes;
  private final KeptDeliveryLedger ledger;
  private final WakerServer server;

  private Waker(SharedIndexInformer<Controller> controllers, SharedIndexInformer<EndpointSlice> routes,
      KeptDeliveryLedger ledger, WakerServer server) {
    this.controllers = controllers;
    this.routes = routes;
    this.ledger = ledger;
    this.server = server;
  }

  /** Starts the informers, then listens on the port (0 picks a free one) with the settings' limits. */
  public static Waker start(KubernetesClient client, int port, HibernationSettings settings, Clock clock)
      throws IOException {
    SharedIndexInformer<Controller> controllers = client.resources(Controller.class).inAnyNamespace().inform();
    SharedIndexInformer<EndpointSlice> routes = null;
    KeptDeliveryLedger ledger = null;
    try {
      routes = ParkedControllers.informRoutes(client);
      ledger = KeptDeliveryLedger.watching(client, clock);
      WakerServer server = WakerServer.start(port, controllers.getStore()::list,
          new ParkedControllers(routes.getStore()::list),
          new KubernetesWakeRequests(client, ledger, settings.keptBytesCap()),
          new SourceRateLimit(settings.keptPerSourcePerMinute(), clock), clock);
      return new Waker(controllers, routes, ledger, server);
    } catch (IOException | RuntimeException e) {
      controllers.close();
      if (routes != null) {
        routes.close();
      }
      if (ledger != null) {
        ledger.close();
      }
      throw e;
    }
  }

  public int port() {
    return server.port();
  }

  @Override
  public void close() {
    server.close();
    ledger.close();
    routes.close();
    controllers.close();
  }
}
