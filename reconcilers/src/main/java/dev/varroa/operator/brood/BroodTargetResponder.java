package dev.varroa.operator.brood;

import dev.varroa.api.v1alpha1.BroodOperationStatus.Target;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.BroodTargetReport;
import dev.varroa.protocol.bus.v1.BroodTargetRequest;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers varroa.clusters.&lt;cluster&gt;.brood-targets: one pass of the steps of the targets the core's operator
 * hands this cluster. It keeps only what it answered last for each target, so a request carrying an older state (its
 * reply was lost) continues from the newer one instead of repeating an act.
 */
public final class BroodTargetResponder implements AutoCloseable {
  /** Answers kept for lost replies; a target not asked about for this long is forgotten. */
  static final int KEPT_ANSWERS = 4096;
  private static final Logger LOG = LoggerFactory.getLogger(BroodTargetResponder.class);
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private final Connection nats;
  private final String cluster;
  private final TargetStepExecutor executor;
  private final Map<String, Target> answered = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Target> eldest) {
      return size() > KEPT_ANSWERS;
    }
  };
  private Dispatcher dispatcher;

  public BroodTargetResponder(Connection nats, String cluster, TargetStepExecutor executor) {
    this.nats = nats;
    this.cluster = cluster;
    this.executor = executor;
  }

  public synchronized void start() {
    dispatcher = nats.createDispatcher(this::answer);
    dispatcher.subscribe(BusNames.clusterBroodTargets(cluster), BusNames.OPERATOR_QUEUE_GROUP);
  }

  /** One pass over the request's targets; what the core's operator gets back. */
  public synchronized BroodTargetReport pass(BroodTargetRequest request) {
    BroodTargetReport.Builder report = BroodTargetReport.newBuilder().setCluster(cluster);
    try {
      OperationContext op = JSON.unmarshal(request.getContextJson(), OperationContext.class);
      for (String json : request.getTargetsJsonList()) {
        Target given = JSON.unmarshal(json, Target.class);
        String key = op.run() + "/" + given.namespace + "/" + given.name;
        Target target = newer(given, answered.get(key));
        if (request.getCancel()) {
          executor.cancel(op, target);
        } else {
          target = executor.advance(op, target);
        }
        answered.put(key, target);
        report.addTargetsJson(JSON.asJson(target));
      }
    } catch (RuntimeException e) {
      LOG.warn("event=brood_targets_failed cluster={} error=\"{}\"", cluster, e.getMessage());
      return BroodTargetReport.newBuilder().setCluster(cluster).setError("cluster " + cluster
          + " could not run the pass: " + e.getMessage()).build();
    }
    return report.build();
  }

  private static Target newer(Target given, Target kept) {
    if (kept == null || kept.reportedAt == null) {
      return given;
    }
    if (given.reportedAt == null || Instant.parse(given.reportedAt).isBefore(Instant.parse(kept.reportedAt))) {
      return kept;
    }
    return given;
  }

  private void answer(Message request) {
    if (request.getReplyTo() == null) {
      return;
    }
    try {
      nats.publish(request.getReplyTo(), pass(BroodTargetRequest.parseFrom(request.getData())).toByteArray());
    } catch (Exception e) {
      LOG.warn("event=brood_targets_unreadable cluster={} error=\"{}\"", cluster, e.getMessage());
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
