import { useEffect } from 'preact/hooks';
import { getJson } from '../api';
import { useClusters } from '../clusters';
import { DataTable, Empty, ErrorNote, Loading, PageHeading } from '../components/common';
import { useActivityRefresh, usePolling } from '../live';
import { BASE } from '../router';
import { ago } from '../time';
import type { Cluster, ControllerList } from '../types';

/**
 * A drain's progress and the command that starts or cancels it, to copy into a terminal: the dashboard only reads,
 * actions come from varroactl and MCP (docs/actions.md).
 */
function DrainCell({ cluster }: { cluster: Cluster }) {
  if (cluster.core) return <span class="muted">never drained (core)</span>;
  const state = cluster.drainState ?? '';
  const command = `varroactl drain cluster ${cluster.name}${state === 'Draining' ? ' --cancel' : ''}`;
  const progress =
    state === 'Draining' ? (
      <span class="warn">Draining — {cluster.controllers} left</span>
    ) : state === 'Drained' ? (
      <span class="ok">Drained</span>
    ) : state === 'DrainCancelled' ? (
      <span>Drain cancelled — {cluster.controllers} left</span>
    ) : (
      <span class="muted">—</span>
    );
  return (
    <>
      {progress}
      {state === 'Drained' ? null : (
        <div>
          <code class="copy-command" title="Run in a terminal; the dashboard does not change state">
            {command}
          </code>
        </div>
      )}
    </>
  );
}

export function ClustersPage() {
  const state = useClusters();
  const { reportListStatus, refresh } = state;
  // The list of attention rows is small, and its answer says which clusters' lists arrive.
  const lists = usePolling(() => getJson<ControllerList>('/controllers?attention=true'), 'cluster lists');
  useActivityRefresh(refresh, () => true, 'clusters');
  useEffect(() => {
    if (lists.data) reportListStatus(lists.data.clusters ?? []);
  }, [lists.data, reportListStatus]);
  const clusters = state.clusters;
  return (
    <>
      <PageHeading title="Clusters" />
      {state.clustersError && !clusters ? <ErrorNote what="the clusters" error={state.clustersError} /> : null}
      {!clusters && !state.clustersError ? <Loading what="registered clusters" /> : null}
      {clusters && clusters.length === 0 ? (
        <Empty>
          No cluster is registered: no operator has refreshed its entry in varroa_clusters within the last 30 s.
        </Empty>
      ) : null}
      {clusters && clusters.length > 0 ? (
        <DataTable label="Clusters" class="clusters" columns={['Name', 'Health', 'Heartbeat', 'Controller list', 'Operator', 'Kubernetes', 'Connected controllers', 'Drain']}>
          {clusters.map((cluster) => {
            const list = state.listStatus[cluster.name];
            return (
              <tr data-cluster-row={cluster.name} key={cluster.name}>
                <th scope="row">
                  <a href={`${BASE}/controllers?cluster=${encodeURIComponent(cluster.name)}&sort=name&dir=asc`}>
                    {cluster.name}
                  </a>
                  {cluster.core ? <span class="tag core-tag">core</span> : null}
                  {!cluster.core && cluster.role ? <span class="tag">{cluster.role}</span> : null}
                </th>
                <td>
                  <span class={cluster.healthy ? 'ok' : 'bad'}>{cluster.healthy ? '● Healthy' : '○ No heartbeat'}</span>
                </td>
                <td>{ago(cluster.heartbeatAgeSeconds)}</td>
                <td>
                  {!list ? (
                    <span class="muted">…</span>
                  ) : list.ok ? (
                    <span class="ok">answers</span>
                  ) : (
                    <span class="bad">{list.reason || 'list unavailable'}</span>
                  )}
                </td>
                <td>{cluster.operatorVersion || <span class="muted">—</span>}</td>
                <td>{cluster.kubernetesVersion || <span class="muted">—</span>}</td>
                <td>
                  {cluster.connectedControllers} of {cluster.controllers}
                </td>
                <td data-drain={cluster.name}>
                  <DrainCell cluster={cluster} />
                </td>
              </tr>
            );
          })}
        </DataTable>
      ) : null}
    </>
  );
}
