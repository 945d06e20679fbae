import { useClusters } from '../clusters';
import { ago } from '../time';

/** One card per cluster on every page once two or more are registered, core first. */
export function HealthStrip() {
  const state = useClusters();
  const clusters = state.clusters ?? [];
  if (clusters.length < 2) return null;
  return (
    <section aria-label="Cluster health" class="health-strip">
      {clusters.map((cluster) => {
        const list = state.listStatus[cluster.name];
        const listDown = list && !list.ok;
        const health = !cluster.healthy ? 'unhealthy' : listDown ? 'degraded' : 'healthy';
        return (
          <a
            class={`cluster-card ${health}`}
            data-cluster={cluster.name}
            key={cluster.name}
            href={`/ui/controllers?cluster=${encodeURIComponent(cluster.name)}&sort=name&dir=asc`}
          >
            <span class="cluster-card-name">
              {cluster.name}
              {cluster.core ? <span class="tag core-tag">core</span> : null}
            </span>
            <span class="cluster-card-state">
              <span class="dot" aria-hidden="true" />
              {cluster.healthy ? 'Healthy' : 'No heartbeat'}
              {listDown ? ` · ${list.reason || 'list unavailable'}` : ''}
            </span>
            <span class="cluster-card-meta">heartbeat {ago(cluster.heartbeatAgeSeconds)}</span>
          </a>
        );
      })}
    </section>
  );
}
