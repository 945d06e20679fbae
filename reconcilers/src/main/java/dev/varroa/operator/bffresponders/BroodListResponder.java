package dev.varroa.operator.bffresponders;

import dev.varroa.api.v1alpha1.BroodOperation;
import dev.varroa.api.v1alpha1.BroodSchedule;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.BroodOperationRows;
import dev.varroa.protocol.bus.v1.BroodOperationsRequest;
import dev.varroa.protocol.bus.v1.BroodScheduleRows;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers varroa.clusters.&lt;cluster&gt;.brood-operations and .brood-schedules with this cluster's BroodOperations and
 * BroodSchedules, from informer caches (never a call to the Kubernetes API per request), in the operator replicas'
 * queue group so one replica answers.
 */
public final class BroodListResponder implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(BroodListResponder.class);
  private static final Comparator<HasMetadata> BY_NAMESPACE_AND_NAME = Comparator
      .comparing((HasMetadata o) -> o.getMetadata().getNamespace())
      .thenComparing(o -> o.getMetadata().getName());

  private final Connection nats;
  private final String cluster;
  private final Supplier<Collection<BroodOperation>> operations;
  private final Supplier<Collection<BroodSchedule>> schedules;
  private final List<AutoCloseable> owned = new ArrayList<>();
  private Dispatcher dispatcher;

  /** A responder over its own informers on both kinds in every namespace, closed with it. */
  public static BroodListResponder informing(KubernetesClient client, Connection nats, String cluster) {
    SharedIndexInformer<BroodOperation> operations = client.resources(BroodOperation.class).inAnyNamespace().inform();
    SharedIndexInformer<BroodSchedule> schedules = client.resources(BroodSchedule.class).inAnyNamespace().inform();
    BroodListResponder responder = new BroodListResponder(nats, cluster, operations.getStore()::list,
        schedules.getStore()::list);
    responder.owned.add(operations);
    responder.owned.add(schedules);
    return responder;
  }

  public BroodListResponder(Connection nats, String cluster, Supplier<Collection<BroodOperation>> operations,
      Supplier<Collection<BroodSchedule>> schedules) {
    this.nats = nats;
    this.cluster = cluster;
    this.operations = operations;
    this.schedules = schedules;
  }

  public synchronized void start() {
    dispatcher = nats.createDispatcher(this::answer);
    dispatcher.subscribe(BusNames.clusterBroodOperations(cluster), BusNames.OPERATOR_QUEUE_GROUP);
    dispatcher.subscribe(BusNames.clusterBroodSchedules(cluster), BusNames.OPERATOR_QUEUE_GROUP);
  }

  /** The operations the request names (all of them, or the one by namespace and name), by namespace then name. */
  public BroodOperationRows operations(BroodOperationsRequest request) {
    BroodOperationRows.Builder rows = BroodOperationRows.newBuilder().setCluster(cluster);
    operations.get().stream()
        .filter(o -> request.getNamespace().isEmpty() || request.getNamespace().equals(o.getMetadata().getNamespace()))
        .filter(o -> request.getName().isEmpty() || request.getName().equals(o.getMetadata().getName()))
        .sorted(BY_NAMESPACE_AND_NAME)
        .map(BroodRowRenderer::render)
        .forEach(rows::addRows);
    return rows.build();
  }

  public BroodScheduleRows schedules() {
    BroodScheduleRows.Builder rows = BroodScheduleRows.newBuilder().setCluster(cluster);
    schedules.get().stream().sorted(BY_NAMESPACE_AND_NAME).map(BroodRowRenderer::render).forEach(rows::addRows);
    return rows.build();
  }

  private void answer(Message request) {
    if (request.getReplyTo() == null) {
      return;
    }
    try {
      byte[] reply = request.getSubject().equals(BusNames.clusterBroodSchedules(cluster))
          ? schedules().toByteArray()
          : operations(BroodOperationsRequest.parseFrom(request.getData())).toByteArray();
      nats.publish(request.getReplyTo(), reply);
    } catch (Exception e) {
      LOG.warn("event=brood_rows_failed cluster={} subject={} error=\"{}\"", cluster, request.getSubject(),
          e.getMessage());
    }
  }

  @Override
  public synchronized void close() {
    if (dispatcher != null) {
      nats.closeDispatcher(dispatcher);
      dispatcher = null;
    }
    for (AutoCloseable informer : owned) {
      try {
        informer.close();
      } catch (Exception e) {
        LOG.warn("event=brood_informer_close_failed cluster={} error=\"{}\"", cluster, e.getMessage());
      }
    }
    owned.clear();
  }
}
