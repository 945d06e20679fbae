package dev.varroa.operator.bffresponders;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.ControllerRows;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import java.util.Collection;
import java.util.Comparator;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers varroa.clusters.&lt;cluster&gt;.controllers with every Controller's row, from the operator's cache (never a
 * call to the Kubernetes API per request), in the operator replicas' queue group so one replica answers.
 */
public final class ControllerListResponder implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ControllerListResponder.class);

  private final Connection nats;
  private final String cluster;
  private final Supplier<Collection<Controller>> controllers;
  private Dispatcher dispatcher;

  public ControllerListResponder(Connection nats, String cluster, Supplier<Collection<Controller>> controllers) {
    this.nats = nats;
    this.cluster = cluster;
    this.controllers = controllers;
  }

  public synchronized void start() {
    dispatcher = nats.createDispatcher(this::answer);
    dispatcher.subscribe(BusNames.clusterControllers(cluster), BusNames.OPERATOR_QUEUE_GROUP);
  }

  /** The rows in a stable order: namespace, then name. */
  public ControllerRows rows() {
    ControllerRows.Builder rows = ControllerRows.newBuilder().setCluster(cluster);
    controllers.get().stream()
        .sorted(Comparator.comparing((Controller c) -> c.getMetadata().getNamespace())
            .thenComparing(c -> c.getMetadata().getName()))
        .map(ControllerRowRenderer::render)
        .forEach(rows::addRows);
    return rows.build();
  }

  private void answer(Message request) {
    if (request.getReplyTo() == null) {
      return;
    }
    try {
      nats.publish(request.getReplyTo(), rows().toByteArray());
    } catch (RuntimeException e) {
      LOG.warn("event=controller_rows_failed cluster={} error=\"{}\"", cluster, e.getMessage());
    }
  }

  @Override
  public synchronized void close() {
    if (dispatcher != null) {
      nats.closeDispatcher(dispatcher);
      dispatcher = null;
    }
  }
}
