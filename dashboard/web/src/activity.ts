import type { ActivityEvent } from './types';

// The activity timeline's state: the backfill and the live events merged, newest first, each once.

/** Enough to read back a working day on one screen while the page's memory stays bounded. */
export const TIMELINE_LIMIT = 500;

export interface ActivityFilter {
  cluster: string;
  namespace: string;
  controller: string;
  kind: string;
}

export function parseActivityFilter(search: string): ActivityFilter {
  const params = new URLSearchParams(search);
  return {
    cluster: params.get('cluster') ?? '',
    namespace: params.get('namespace') ?? '',
    controller: params.get('controller') ?? '',
    kind: params.get('kind') ?? '',
  };
}

export function formatActivityFilter(filter: ActivityFilter): string {
  const params = new URLSearchParams();
  for (const name of ['cluster', 'namespace', 'controller', 'kind'] as const) {
    if (filter[name]) params.set(name, filter[name]);
  }
  const text = params.toString();
  return text ? '?' + text : '';
}

export function matchesFilter(event: ActivityEvent, filter: ActivityFilter): boolean {
  return (
    (!filter.cluster || event.cluster === filter.cluster) &&
    (!filter.namespace || event.namespace === filter.namespace) &&
    (!filter.controller || event.controller === filter.controller) &&
    (!filter.kind || event.kind === filter.kind)
  );
}

function identity(event: ActivityEvent): string {
  return event.id || `${event.occurredAt}|${event.kind}|${event.cluster}/${event.namespace}/${event.controller}|${event.summary}`;
}

/** Merges newly arrived events into the timeline: newest first, duplicates dropped, at most the limit kept. */
export function mergeActivity(timeline: ActivityEvent[], arrived: ActivityEvent[], limit = TIMELINE_LIMIT): ActivityEvent[] {
  const seen = new Set(timeline.map(identity));
  const fresh = arrived.filter((event) => {
    const id = identity(event);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  if (fresh.length === 0) return timeline;
  const merged = [...fresh, ...timeline];
  merged.sort((a, b) => (Date.parse(b.occurredAt) || 0) - (Date.parse(a.occurredAt) || 0));
  return merged.slice(0, limit);
}
