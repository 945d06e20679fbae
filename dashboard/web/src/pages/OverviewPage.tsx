import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { controllerPath, getJson } from '../api';
import { fixMessage, needsAttention, PHASES } from '../attention';
import { mergeActivity } from '../activity';
import { useClusters } from '../clusters';
import { ClusterWarnings } from '../components/ClusterWarnings';
import { BuildsPerHour, QueueToStart } from '../components/BuildCharts';
import { AttentionBadge, Empty, ErrorNote, LiveIndicator, Loading, PageHeading } from '../components/common';
import { DigestText } from '../components/Digest';
import { Timeline } from '../components/Timeline';
import type { RunStatistics } from '../buildStats';
import '../overview.css';
import { subscribeActivity, useActivityRefresh, useNow, usePolling } from '../live';
import { BASE, controllerHref } from '../router';
import type { ActivityEvent, ControllerDetail, ControllerList, ControllerRow } from '../types';

/** The fix messages come from each controller's detail; only this many are asked for. */
const DETAILS_FOR_ATTENTION = 50;
const RECENT_ACTIVITY = 15;
/** The hourly figures move slowly: once a minute is enough. */
const STATISTICS_INTERVAL_MS = 60_000;

function rowKey(row: ControllerRow) {
  return `${row.cluster}/${row.namespace}/${row.name}`;
}

export function OverviewPage() {
  const polled = usePolling(() => getJson<ControllerList>('/controllers'), 'overview');
  useActivityRefresh(polled.refresh, () => true, 'overview');
  const { reportListStatus } = useClusters();
  const now = useNow();
  const list = polled.data;
  const statistics = usePolling(() => getJson<RunStatistics>('/statistics/runs'), 'run-statistics', STATISTICS_INTERVAL_MS);
  useEffect(() => {
    if (list) reportListStatus(list.clusters ?? []);
  }, [list, reportListStatus]);

  const attention = useMemo(() => needsAttention(list?.items ?? []), [list]);
  const [details, setDetails] = useState<Record<string, { signal: string; detail: ControllerDetail }>>({});
  const asked = useRef(new Map<string, string>());

  // A detail is asked for again only when the row's signal changed or activity named the controller.
  useEffect(
    () =>
      subscribeActivity((event) => asked.current.delete(`${event.cluster}/${event.namespace}/${event.controller}`)),
    [],
  );
  useEffect(() => {
    for (const row of attention.slice(0, DETAILS_FOR_ATTENTION)) {
      const key = rowKey(row);
      const version = row.attention + '|' + (row.lastApply?.message ?? '');
      if (asked.current.get(key) === version) continue;
      asked.current.set(key, version);
      getJson<ControllerDetail>(controllerPath(row.cluster, row.namespace, row.name)).then(
        (detail) => setDetails((d) => ({ ...d, [key]: { signal: row.attention, detail } })),
        () => asked.current.delete(key),
      );
    }
  }, [attention]);

  const [recent, setRecent] = useState<ActivityEvent[]>([]);
  const [recordStore, setRecordStore] = useState(true);
  useEffect(() => {
    getJson<{ items: ActivityEvent[]; recordStore: boolean }>(`/activity?limit=${RECENT_ACTIVITY}`).then(
      (answer) => {
        setRecent((r) => mergeActivity(r, answer.items, RECENT_ACTIVITY));
        setRecordStore(answer.recordStore);
      },
      () => {},
    );
    return subscribeActivity((event) => setRecent((r) => mergeActivity(r, [event], RECENT_ACTIVITY)));
  }, []);

  const counts = useMemo(() => {
    const byPhase: Record<string, number> = {};
    for (const row of list?.items ?? []) byPhase[row.phase || 'Unknown'] = (byPhase[row.phase || 'Unknown'] ?? 0) + 1;
    return byPhase;
  }, [list]);
  const phases = [...PHASES, ...Object.keys(counts).filter((p) => !(PHASES as readonly string[]).includes(p))];

  return (
    <div class="overview-page">
      <PageHeading title="Overview">
        <LiveIndicator updatedAt={polled.updatedAt} staleSince={polled.staleSince} error={polled.error} />
      </PageHeading>
      {list ? <ClusterWarnings statuses={list.clusters ?? []} /> : null}
      {polled.error && !list ? <ErrorNote what="the controllers" error={polled.error} /> : null}
      <div class="overview-layout">
        <section class="card attention-card" aria-labelledby="h-attention">
          <h2 id="h-attention">Needs attention</h2>
          {!list && !polled.error ? <Loading what="controllers" /> : null}
          {list && attention.length === 0 ? (
            <Empty>Nothing needs attention: no controller is failed, blocked, or unreachable.</Empty>
          ) : null}
          {attention.length > 0 ? (
            <ol aria-label="Needs attention" class="attention-list">
              {attention.map((row) => {
                const known = details[rowKey(row)];
                const message = fixMessage(row, known?.detail);
                return (
                  <li data-attention-row={rowKey(row)} data-attention={row.attention} key={rowKey(row)}>
                    <AttentionBadge attention={row.attention} />
                    <a href={controllerHref(row.cluster, row.namespace, row.name)} class="name">
                      {row.namespace}/{row.name}
                    </a>
                    <span class="muted">{row.cluster}</span>
                    <p class="fix">
                      {message ? <DigestText text={message} /> : known ? 'See the conditions on the controller page.' : '…'}
                    </p>
                  </li>
                );
              })}
            </ol>
          ) : null}
        </section>
        <section class="card phases-card" aria-labelledby="h-phases">
          <h2 id="h-phases">Controllers by phase</h2>
          {list ? (
            <ul class="phase-counts" aria-label="Controllers by phase">
              {phases.map((phase) => (
                <li key={phase} data-phase={phase} class={counts[phase] ? '' : 'zero'}>
                  <a href={`${BASE}/controllers?phase=${encodeURIComponent(phase)}&sort=name&dir=asc`}>
                    <span class={`badge phase phase-${phase.toLowerCase()}`}>{phase}</span>
                    <span class="count-value">{counts[phase] ?? 0}</span>
                  </a>
                </li>
              ))}
            </ul>
          ) : polled.error ? null : (
            <Loading what="phase counts" />
          )}
          {list ? (
            <p class="muted">
              {list.items.length} controller{list.items.length === 1 ? '' : 's'} in total.{' '}
              <a href={`${BASE}/controllers`}>All controllers</a>
            </p>
          ) : null}
        </section>
        <section class="card charts-card" aria-labelledby="h-builds">
          <h2 id="h-builds">Builds per hour, last 24 hours</h2>
          <StatisticsBody polled={statistics.data} error={statistics.error} draw={(s) => <BuildsPerHour stats={s} />} />
          <h2 id="h-queue">Queue to start, across the fleet</h2>
          <StatisticsBody polled={statistics.data} error={statistics.error} draw={(s) => <QueueToStart stats={s} />} />
        </section>
        <section class="card recent-card" aria-labelledby="h-recent">
          <h2 id="h-recent">Recent activity</h2>
          {recent.length ? (
            <Timeline events={recent} label="Recent activity" now={now} />
          ) : (
            <Empty>
              {recordStore
                ? 'No activity yet; events appear here as they happen.'
                : 'No activity history (the record store is not enabled); live events appear here as they happen.'}
            </Empty>
          )}
          <p>
            <a href={`${BASE}/activity`}>All activity</a>
          </p>
        </section>
      </div>
    </div>
  );
}

/** A chart once the figures arrived; why not, otherwise (no record store, no permission, store down). */
function StatisticsBody({
  polled,
  error,
  draw,
}: {
  polled: RunStatistics | undefined;
  error: Error | undefined;
  draw: (stats: RunStatistics) => preact.ComponentChildren;
}) {
  if (!polled) return error ? <ErrorNote what="the build figures" error={error} /> : <Loading what="build figures" />;
  if (!polled.recordStore) return <Empty>No build history: the record store is not enabled.</Empty>;
  return <>{draw(polled)}</>;
}
