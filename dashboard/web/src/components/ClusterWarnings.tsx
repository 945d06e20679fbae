import type { ClusterListStatus } from '../types';

/** A cluster whose list did not arrive, named with the BFF's reason, above the table; what says what is missing. */
export function ClusterWarnings({ statuses, what = 'controllers' }: { statuses: ClusterListStatus[]; what?: string }) {
  const failing = statuses.filter((status) => !status.ok);
  if (failing.length === 0) return null;
  return (
    <div class="cluster-warnings">
      {failing.map((status) => (
        <div role="alert" class="warning" data-cluster-warning={status.name} key={status.name}>
          <strong>Cluster {status.name}:</strong> {status.reason || 'list unavailable'}. Its {what} are not shown until it
          answers again.
        </div>
      ))}
    </div>
  );
}
