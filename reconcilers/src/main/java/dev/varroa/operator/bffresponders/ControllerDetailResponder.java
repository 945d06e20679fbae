package dev.varroa.operator.bffresponders;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.ControllerDetail;
import dev.varroa.protocol.bus.v1.ControllerDetailRequest;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers varroa.clusters.&lt;cluster&gt;.controller with one Controller in full, from the reconciler's caches, in
 * the operator replicas' queue group. A Controller that does not exist is an answer too (found: false), so the
 * BFF can say 404 rather than time out.
 */
public final class ControllerDetailResponder implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ControllerDetailResponder.class);

  /** Where the detail comes from: the Controller reconciler's caches. */
  @FunctionalInterface
  public interface Source {
    Optional<ControllerDetail> detail(String cluster, String namespace, String name);
  }

  private final Connection nats;
  private final String cluster;
  private final Source source;
  private Dispatcher dispatcher;

  public ControllerDetailResponder(Connection nats, String cluster, Source source) {
    this.nats = nats;
    this.cluster = cluster;
    this.source = source;
  }

  public synchronized void start() {
    dispatcher = nats.createDispatcher(this::answer);
    dispatcher.subscribe(BusNames.clusterController(cluster), BusNames.OPERATOR_QUEUE_GROUP);
  }

  private void answer(Message request) {
    if (request.getReplyTo() == null) {
      return;
    }
    try {
      ControllerDetailRequest asked = ControllerDetailRequest.parseFrom(request.getData());
      ControllerDetail detail = source.detail(cluster, asked.getNamespace(), asked.getName())
          .orElseGet(() -> ControllerDetail.newBuilder().setCluster(cluster).setFound(false).build());
      nats.publish(request.getReplyTo(), detail.toByteArray());
    } catch (Exception e) {
      LOG.warn("event=controller_detail_failed cluster={} error=\"{}\"", cluster, e.getMessage());
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
