import { useEffect, useMemo, useState } from 'preact/hooks';
import { getJson, query } from '../api';
import {
  type ActivityFilter,
  formatActivityFilter,
  matchesFilter,
  mergeActivity,
  parseActivityFilter,
} from '../activity';
import { useClusters } from '../clusters';
import { Empty, ErrorNote, Loading, PageHeading } from '../components/common';
import { Timeline } from '../components/Timeline';
import { useNow } from '../live';
import { BASE, navigate } from '../router';
import type { ActivityEvent } from '../types';

type StreamState = 'connecting' | 'live' | 'reconnecting' | 'refused';

/** The kinds the operator and gateway publish; others seen on the stream are added to the choice. */
const KNOWN_KINDS = [
  'controller.created',
  'controller.phase_changed',
  'controller.deleted',
  'controller.apply_succeeded',
  'controller.apply_failed',
  'mite.connected',
  'mite.disconnected',
];

export function ActivityPage({ search }: { search: string }) {
  const filter = useMemo(() => parseActivityFilter(search), [search]);
  const clusters = useClusters();
  const now = useNow();
  const [events, setEvents] = useState<ActivityEvent[]>([]);
  const [backfill, setBackfill] = useState<{ loaded: boolean; recordStore: boolean; error?: Error }>({
    loaded: false,
    recordStore: true,
  });
  const [stream, setStream] = useState<StreamState>('connecting');
  const serverQuery = query({ cluster: filter.cluster, namespace: filter.namespace, controller: filter.controller });

  useEffect(() => {
    setEvents([]);
    setBackfill({ loaded: false, recordStore: true });
    setStream('connecting');
    let closed = false;
    getJson<{ items: ActivityEvent[]; recordStore: boolean }>('/activity' + (serverQuery ? serverQuery + '&' : '?') + 'limit=200').then(
      (answer) => {
        if (closed) return;
        setEvents((timeline) => mergeActivity(timeline, answer.items));
        setBackfill({ loaded: true, recordStore: answer.recordStore });
      },
      (error: Error) => !closed && setBackfill({ loaded: true, recordStore: true, error }),
    );
    const source = new EventSource('/activity/stream' + serverQuery);
    source.addEventListener('open', () => setStream('live'));
    source.addEventListener('activity', (message) => {
      try {
        const event = JSON.parse((message as MessageEvent<string>).data) as ActivityEvent;
        setEvents((timeline) => mergeActivity(timeline, [event]));
      } catch {
        // a malformed event is skipped; the next one still arrives
      }
    });
    // The BFF ends a stream with a reason first; the browser reconnects with Last-Event-ID by itself.
    source.addEventListener('end', () => setStream('reconnecting'));
    source.addEventListener('error', () =>
      setStream(source.readyState === EventSource.CLOSED ? 'refused' : 'reconnecting'),
    );
    return () => {
      closed = true;
      source.close();
    };
  }, [serverQuery]);

  const shown = useMemo(() => events.filter((event) => matchesFilter(event, filter)), [events, filter]);
  const kinds = useMemo(() => [...new Set([...KNOWN_KINDS, ...events.map((e) => e.kind)])].sort(), [events]);
  const clusterNames = (clusters.clusters ?? []).map((c) => c.name);
  const update = (change: Partial<ActivityFilter>, replace = false) =>
    navigate(`${BASE}/activity${formatActivityFilter({ ...filter, ...change })}`, replace);

  const streamText: Record<StreamState, string> = {
    connecting: 'Connecting to the live feed…',
    live: 'Live',
    reconnecting: 'Reconnecting to the live feed…',
    refused: 'The live feed was refused (no permission to watch activity, or the dashboard server is down)',
  };

  return (
    <>
      <PageHeading title="Activity">
        <span class={`live ${stream === 'live' ? '' : 'stale'}`} aria-live="polite" data-stream-state={stream}>
          <span class="dot" aria-hidden="true" />
          {streamText[stream]}
        </span>
      </PageHeading>
      <form class="filters" onSubmit={(event) => event.preventDefault()}>
        <div class="field">
          <label for="activity-cluster">Cluster</label>
          <select id="activity-cluster" value={filter.cluster} onChange={(e) => update({ cluster: (e.target as HTMLSelectElement).value })}>
            <option value="">All clusters</option>
            {[...new Set([...clusterNames, ...(filter.cluster ? [filter.cluster] : [])])].map((name) => (
              <option value={name} key={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="activity-namespace">Namespace</label>
          <input
            id="activity-namespace"
            value={filter.namespace}
            placeholder="any"
            onChange={(e) => update({ namespace: (e.target as HTMLInputElement).value.trim() })}
          />
        </div>
        <div class="field">
          <label for="activity-controller">Controller</label>
          <input
            id="activity-controller"
            value={filter.controller}
            placeholder="any"
            onChange={(e) => update({ controller: (e.target as HTMLInputElement).value.trim() })}
          />
        </div>
        <div class="field">
          <label for="activity-kind">Kind</label>
          <select id="activity-kind" value={filter.kind} onChange={(e) => update({ kind: (e.target as HTMLSelectElement).value })}>
            <option value="">All kinds</option>
            {[...new Set([...kinds, ...(filter.kind ? [filter.kind] : [])])].map((kind) => (
              <option value={kind} key={kind}>
                {kind}
              </option>
            ))}
          </select>
        </div>
      </form>
      {backfill.error ? <ErrorNote what="the activity history" error={backfill.error} /> : null}
      {backfill.loaded && !backfill.recordStore ? (
        <p class="muted">
          No activity history (the record store is not enabled): the timeline shows what happens from now on.
        </p>
      ) : null}
      {!backfill.loaded ? <Loading what="recent activity" /> : null}
      <Timeline events={shown} label="Activity" now={now} />
      {backfill.loaded && shown.length === 0 ? (
        <Empty>
          No activity {formatActivityFilter(filter) ? 'matches these filters' : 'yet'}; new events appear here as they
          happen.
        </Empty>
      ) : null}
    </>
  );
}
