import type { CellPoolBlock } from './types';

// Pure helpers of the Cells page: order, load in words and the scale command to copy (docs/cells.md).

/** Pools by cluster, namespace, name: the order of the BFF, kept when a cluster answers late. */
export function sortPools(pools: CellPoolBlock[]): CellPoolBlock[] {
  return [...pools].sort(
    (a, b) => a.cluster.localeCompare(b.cluster) || a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name),
  );
}

/** 0.75 -> "75%"; the BFF's load is teams over room, 0 to 1. */
export function loadPercent(load: number): string {
  return `${Math.round((Number.isFinite(load) ? load : 0) * 100)}%`;
}

/** Full cells are warned of: a team that asks for this pool waits for room. */
export function loadLevel(load: number): 'ok' | 'high' | 'full' {
  if (load >= 1) return 'full';
  if (load >= 0.8) return 'high';
  return 'ok';
}

/** What scales the pool from the core: the dashboard only reads, varroactl acts (docs/reference/varroactl.md). */
export function scaleCommand(pool: Pick<CellPoolBlock, 'name' | 'cluster'>, replicas: number | string): string {
  return `varroactl scale cellpool ${pool.name} --replicas ${replicas} --cluster ${pool.cluster}`;
}
