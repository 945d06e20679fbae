import { query } from './api';
import { BASE } from './router';
import type { ActivityEvent, ClusterListStatus } from './types';

// The Pipelines page's data and pure helpers: filters from the URL, order, and the command to copy
// (docs/pipelines-list.md).

/** The newest recorded run of the pipeline's job on its cell. */
export interface PipelineLastRun {
  runId: string;
  build: number | null;
  result: string | null;
  durationMillis: number | null;
  queuedAt: string | null;
  startedAt: string | null;
  completedAt: string | null;
}

/** One pipeline of a Team (GET /pipelines). */
export interface PipelineRow {
  cluster: string;
  namespace: string;
  team: string;
  pipeline: string;
  cell: string | null;
  cellNamespace: string | null;
  job: string;
  repository: string;
  branch: string | null;
  scriptPath: string | null;
  /** 'pipeline' on the core; 'unknown' for a member's Team (the core does not read its composed bundle). */
  kind: string;
  triggers: { cron: string | null; pollScm: string | null; push: boolean };
  lastRun: PipelineLastRun | null;
  nextRun: string | null;
}

export interface PipelineList {
  pipelines: PipelineRow[];
  recordStore?: boolean;
  clusters: ClusterListStatus[];
}

export interface PipelinesFilter {
  cluster: string;
  namespace: string;
  team: string;
}

export function parsePipelinesFilter(search: string): PipelinesFilter {
  const params = new URLSearchParams(search);
  return { cluster: params.get('cluster') ?? '', namespace: params.get('namespace') ?? '', team: params.get('team') ?? '' };
}

export function pipelinesHref(filter: PipelinesFilter): string {
  return `${BASE}/pipelines${query({ cluster: filter.cluster, namespace: filter.namespace, team: filter.team })}`;
}

export function filterPipelines(rows: PipelineRow[], filter: PipelinesFilter): PipelineRow[] {
  return rows.filter(
    (row) =>
      (!filter.cluster || row.cluster === filter.cluster) &&
      (!filter.namespace || row.namespace === filter.namespace) &&
      (!filter.team || row.team === filter.team),
  );
}

/** By cluster, namespace, team; a Team's pipelines keep their spec order (the BFF's), whichever cluster answers first. */
export function sortPipelines(rows: PipelineRow[]): PipelineRow[] {
  return rows
    .map((row, index) => ({ row, index }))
    .sort(
      (a, b) =>
        a.row.cluster.localeCompare(b.row.cluster) ||
        a.row.namespace.localeCompare(b.row.namespace) ||
        a.row.team.localeCompare(b.row.team) ||
        a.index - b.index,
    )
    .map(({ row }) => row);
}

/** The distinct values of one column, sorted: the choices of a filter. */
export function choices(rows: PipelineRow[], column: 'cluster' | 'namespace' | 'team'): string[] {
  return [...new Set(rows.map((row) => row[column]))].sort();
}

/** What starts the pipeline from the core: the dashboard only reads, varroactl acts. */
export function runCommand(row: Pick<PipelineRow, 'team' | 'pipeline' | 'namespace' | 'cluster'>): string {
  return `varroactl run pipeline ${row.team}/${row.pipeline} -n ${row.namespace} --cluster ${row.cluster}`;
}

/** Activity of a cell that hosts a listed pipeline (or of its cluster as a whole) may change the list. */
export function concernsPipelines(event: ActivityEvent, rows: PipelineRow[]): boolean {
  if (!event.controller) return rows.some((row) => row.cluster === event.cluster);
  return rows.some((row) => row.cluster === event.cluster && row.cellNamespace === event.namespace && row.cell === event.controller);
}
