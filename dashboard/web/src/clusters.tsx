import { createContext } from 'preact';
import { useCallback, useContext, useMemo, useState } from 'preact/hooks';
import { getJson } from './api';
import { usePolling } from './live';
import type { Cluster, ClusterListStatus } from './types';

// What every page knows about the clusters: the registry (/clusters) and how each answered the last list.

export interface ClusterState {
  clusters: Cluster[] | undefined;
  clustersError: Error | undefined;
  /** The latest controller-list answer of each cluster, from whichever page listed controllers last. */
  listStatus: Record<string, ClusterListStatus>;
  reportListStatus: (statuses: ClusterListStatus[]) => void;
  refresh: () => void;
}

const ClusterContext = createContext<ClusterState>({
  clusters: undefined,
  clustersError: undefined,
  listStatus: {},
  reportListStatus: () => {},
  refresh: () => {},
});

/** Core first, then by name (the API sorts the same way; kept here so the strip never depends on it). */
export function coreFirst(clusters: Cluster[]): Cluster[] {
  return [...clusters].sort((a, b) => Number(b.core) - Number(a.core) || a.name.localeCompare(b.name));
}

export function ClusterProvider({ children }: { children: preact.ComponentChildren }) {
  const polled = usePolling(() => getJson<{ items: Cluster[] }>('/clusters'), 'clusters');
  const [listStatus, setListStatus] = useState<Record<string, ClusterListStatus>>({});
  const reportListStatus = useCallback((statuses: ClusterListStatus[]) => {
    setListStatus((previous) => {
      const next = { ...previous };
      let changed = false;
      for (const status of statuses) {
        const before = previous[status.name];
        if (!before || before.ok !== status.ok || before.reason !== status.reason) {
          next[status.name] = status;
          changed = true;
        }
      }
      return changed ? next : previous;
    });
  }, []);
  const value = useMemo<ClusterState>(
    () => ({
      clusters: polled.data ? coreFirst(polled.data.items) : undefined,
      clustersError: polled.error,
      listStatus,
      reportListStatus,
      refresh: polled.refresh,
    }),
    [polled.data, polled.error, listStatus, reportListStatus, polled.refresh],
  );
  return <ClusterContext.Provider value={value}>{children}</ClusterContext.Provider>;
}

export function useClusters(): ClusterState {
  return useContext(ClusterContext);
}

/** How many clusters the page should treat as registered: the registry, or what the lists named. */
export function clusterCount(state: ClusterState, rowClusters: string[] = []): number {
  const names = new Set<string>([...rowClusters, ...Object.keys(state.listStatus)]);
  for (const cluster of state.clusters ?? []) names.add(cluster.name);
  return names.size;
}

/** The core cluster's name when known (logs are served only for its controllers). */
export function coreName(state: ClusterState): string | undefined {
  return state.clusters?.find((c) => c.core)?.name;
}
