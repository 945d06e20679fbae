package dev.varroa.operator.bffresponders;

import dev.varroa.api.v1alpha1.CellPool;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.CellPoolRows;
import dev.varroa.protocol.bus.v1.CellPoolsRequest;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers varroa.clusters.&lt;cluster&gt;.cellpools with this cluster's CellPools and Teams, from informer caches (never
 * a call to the Kubernetes API per request), in the operator replicas' queue group so one replica answers.
 */
public final class CellPoolListResponder implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CellPoolListResponder.class);
  private static final Comparator<HasMetadata> BY_NAMESPACE_AND_NAME = Comparator
      .comparing((HasMetadata o) -> o.getMetadata().getNamespace())
      .thenComparing(o -> o.getMetadata().getName());

  private final Connection nats;
  private final String cluster;
  private final Supplier<Collection<CellPool>> pools;
  private final Supplier<Collection<Team>> teams;
  private final Clock clock;
  private final List<AutoCloseable> owned = new ArrayList<>();
  private Dispatcher dispatcher;

  /** A responder over its own informers on both kinds in every namespace, closed with it. */
  public static CellPoolListResponder informing(KubernetesClient client, Connection nats, String cluster) {
    SharedIndexInformer<CellPool> pools = client.resources(CellPool.class).inAnyNamespace().inform();
    SharedIndexInformer<Team> teams = client.resources(Team.class).inAnyNamespace().inform();
    CellPoolListResponder responder = new CellPoolListResponder(nats, cluster, pools.getStore()::list,
        teams.getStore()::list);
    responder.owned.add(pools);
    responder.owned.add(teams);
    return responder;
  }

  public CellPoolListResponder(Connection nats, String cluster, Supplier<Collection<CellPool>> pools,
      Supplier<Collection<Team>> teams) {
    this(nats, cluster, pools, teams, Clock.systemUTC());
  }

  /** {@code clock} says when an answer is made: each pipeline's next timer run is the first after it. */
  public CellPoolListResponder(Connection nats, String cluster, Supplier<Collection<CellPool>> pools,
      Supplier<Collection<Team>> teams, Clock clock) {
    this.nats = nats;
    this.cluster = cluster;
    this.pools = pools;
    this.teams = teams;
    this.clock = clock;
  }

  public synchronized void start() {
    dispatcher = nats.createDispatcher(this::answer);
    dispatcher.subscribe(BusNames.clusterCellPools(cluster), BusNames.OPERATOR_QUEUE_GROUP);
  }

  /**
   * The pools and teams of the requested namespace (every namespace when empty), by namespace then name; each Team's
   * pipelines when the request asks for them.
   */
  public CellPoolRows rows(CellPoolsRequest request) {
    Predicate<HasMetadata> inNamespace = o -> request.getNamespace().isEmpty()
        || request.getNamespace().equals(o.getMetadata().getNamespace());
    CellPoolRows.Builder rows = CellPoolRows.newBuilder().setCluster(cluster);
    pools.get().stream().filter(inNamespace).sorted(BY_NAMESPACE_AND_NAME).map(CellPoolRowRenderer::render)
        .forEach(rows::addPools);
    Instant now = clock.instant();
    teams.get().stream().filter(inNamespace).sorted(BY_NAMESPACE_AND_NAME)
        .map(team -> request.getPipelines() ? CellPoolRowRenderer.renderWithPipelines(team, now)
            : CellPoolRowRenderer.render(team)).forEach(rows::addTeams);
    return rows.build();
  }

  private void answer(Message request) {
    if (request.getReplyTo() == null) {
      return;
    }
    try {
      nats.publish(request.getReplyTo(), rows(CellPoolsRequest.parseFrom(request.getData())).toByteArray());
    } catch (Exception e) {
      LOG.warn("event=cellpool_rows_failed cluster={} subject={} error=\"{}\"", cluster, request.getSubject(),
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
        LOG.warn("event=cellpool_informer_close_failed cluster={} error=\"{}\"", cluster, e.getMessage());
      }
    }
    owned.clear();
  }
}
