import { attentionRank } from './attention';
import type { ControllerRow } from './types';

// The Controllers page's filters, search and sort, and how they sit in the URL.

export const SORT_KEYS = ['name', 'namespace', 'cluster', 'phase', 'attention', 'bundle', 'lastApply', 'age'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export interface ControllersQuery {
  q: string;
  cluster: string;
  namespace: string;
  phase: string;
  /** "" any, "true" some signal, "false" none, or one signal by name. */
  attention: string;
  sort: SortKey;
  dir: 'asc' | 'desc';
}

export const DEFAULT_QUERY: ControllersQuery = {
  q: '',
  cluster: '',
  namespace: '',
  phase: '',
  attention: '',
  sort: 'name',
  dir: 'asc',
};

export function parseQuery(search: string): ControllersQuery {
  const params = new URLSearchParams(search);
  const sort = params.get('sort') ?? '';
  return {
    q: params.get('q') ?? '',
    cluster: params.get('cluster') ?? '',
    namespace: params.get('namespace') ?? '',
    phase: params.get('phase') ?? '',
    attention: params.get('attention') ?? '',
    sort: (SORT_KEYS as readonly string[]).includes(sort) ? (sort as SortKey) : 'name',
    dir: params.get('dir') === 'desc' ? 'desc' : 'asc',
  };
}

/** The search part of the URL: empty values are left out, sort and dir always stated so a link says its order. */
export function formatQuery(query: ControllersQuery): string {
  const params = new URLSearchParams();
  for (const name of ['q', 'cluster', 'namespace', 'phase', 'attention'] as const) {
    if (query[name]) params.set(name, query[name]);
  }
  params.set('sort', query.sort);
  params.set('dir', query.dir);
  return '?' + params.toString();
}

/** Clicking a column's sort button: the same column flips, another starts ascending. */
export function toggleSort(query: ControllersQuery, key: SortKey): ControllersQuery {
  if (query.sort === key) return { ...query, dir: query.dir === 'asc' ? 'desc' : 'asc' };
  return { ...query, sort: key, dir: 'asc' };
}

function matchesText(row: ControllerRow, text: string): boolean {
  if (!text) return true;
  const needle = text.toLowerCase();
  const haystack = [
    row.name,
    row.namespace,
    row.cluster,
    row.phase,
    row.attention,
    row.bundle,
    row.revision,
    row.jenkinsVersion,
    ...Object.entries(row.labels ?? {}).map(([k, v]) => `${k}=${v}`),
  ];
  return haystack.some((value) => value && value.toLowerCase().includes(needle));
}

function matchesAttention(row: ControllerRow, attention: string): boolean {
  if (!attention) return true;
  if (attention === 'true') return !!row.attention;
  if (attention === 'false') return !row.attention;
  return row.attention === attention;
}

function sortValue(row: ControllerRow, key: SortKey): string | number {
  switch (key) {
    case 'attention':
      return attentionRank(row.attention);
    case 'lastApply':
      return row.lastApply?.appliedAt ? Date.parse(row.lastApply.appliedAt) || 0 : 0;
    case 'age':
      // ascending age: the youngest (latest createdAt) first
      return -(Date.parse(row.createdAt) || 0);
    default:
      return (row[key] ?? '').toLowerCase();
  }
}

export function applyQuery(rows: ControllerRow[], query: ControllersQuery): ControllerRow[] {
  const kept = rows.filter(
    (row) =>
      (!query.cluster || row.cluster === query.cluster) &&
      (!query.namespace || row.namespace === query.namespace) &&
      (!query.phase || row.phase === query.phase) &&
      matchesAttention(row, query.attention) &&
      matchesText(row, query.q.trim()),
  );
  const sign = query.dir === 'asc' ? 1 : -1;
  return kept.sort((a, b) => {
    const x = sortValue(a, query.sort);
    const y = sortValue(b, query.sort);
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return (
      sign * order ||
      a.name.localeCompare(b.name) ||
      a.namespace.localeCompare(b.namespace) ||
      a.cluster.localeCompare(b.cluster)
    );
  });
}

/** "sha256:0123456789ab…" -> "0123456789ab": enough of a digest to tell revisions apart. */
export function shortDigest(digest: string | null | undefined): string {
  if (!digest) return '';
  const hex = digest.includes(':') ? digest.slice(digest.indexOf(':') + 1) : digest;
  return hex.slice(0, 12);
}
