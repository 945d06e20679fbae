import { useEffect, useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import { getJson } from '../api';
import { ATTENTION_PRECEDENCE, PHASES } from '../attention';
import { clusterCount, useClusters } from '../clusters';
import { ClusterWarnings } from '../components/ClusterWarnings';
import { AttentionBadge, Empty, ErrorNote, LiveIndicator, Loading, PageHeading, PhaseBadge, RelTime } from '../components/common';
import {
  applyQuery,
  type ControllersQuery,
  formatQuery,
  parseQuery,
  shortDigest,
  type SortKey,
  toggleSort,
} from '../controllersQuery';
import { useActivityRefresh, useNow, usePolling } from '../live';
import { BASE, controllerHref, navigate, pendingSearchFocus } from '../router';
import type { ControllerList, ControllerRow } from '../types';

declare global {
  interface Window {
    __varroaTiming?: { firstRender: number; interactive: number };
  }
}

interface Column {
  key: SortKey;
  label: string;
}

const COLUMNS: Column[] = [
  { key: 'name', label: 'Name' },
  { key: 'namespace', label: 'Namespace' },
  { key: 'phase', label: 'Phase' },
  { key: 'attention', label: 'Attention' },
  { key: 'bundle', label: 'Bundle' },
  { key: 'lastApply', label: 'Last apply' },
  { key: 'age', label: 'Age' },
];

function SortHeader({ column, query }: { column: Column; query: ControllersQuery }) {
  const active = query.sort === column.key;
  const direction = active ? (query.dir === 'asc' ? 'ascending' : 'descending') : 'none';
  return (
    <th scope="col" aria-sort={direction}>
      <button
        type="button"
        class="sort"
        onClick={() => navigate(`${BASE}/controllers${formatQuery(toggleSort(query, column.key))}`)}
        aria-label={`Sort by ${column.label}`}
      >
        {column.label}
        <span class="sort-mark" aria-hidden="true">
          {active ? (query.dir === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}

function LastApplyCell({ row, now }: { row: ControllerRow; now: number }) {
  if (!row.lastApply) return <span class="muted">not yet</span>;
  return (
    <span class={row.lastApply.succeeded ? 'ok' : 'bad'} title={row.lastApply.message || undefined}>
      {row.lastApply.succeeded ? '✓ applied' : '✗ refused'} <RelTime value={row.lastApply.appliedAt} now={now} />
    </span>
  );
}

function Select({
  label,
  value,
  options,
  anyLabel,
  onChange,
}: {
  label: string;
  value: string;
  options: { value: string; label: string }[];
  anyLabel: string;
  onChange: (value: string) => void;
}) {
  const id = `filter-${label.toLowerCase()}`;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange((event.target as HTMLSelectElement).value)}>
        <option value="">{anyLabel}</option>
        {options.map((option) => (
          <option value={option.value} key={option.value}>
            {option.label}
          </option>
        ))}
        {value && !options.some((option) => option.value === value) ? <option value={value}>{value}</option> : null}
      </select>
    </div>
  );
}

export function ControllersPage({ search }: { search: string }) {
  const query = useMemo(() => parseQuery(search), [search]);
  const clusterState = useClusters();
  const { reportListStatus } = clusterState;
  const polled = usePolling(() => getJson<ControllerList>('/controllers'), 'controllers');
  useActivityRefresh(polled.refresh, () => true, 'controllers');
  const now = useNow();
  const searchBox = useRef<HTMLInputElement>(null);
  const timed = useRef(false);

  const list = polled.data;
  useEffect(() => {
    if (list) reportListStatus(list.clusters ?? []);
  }, [list, reportListStatus]);

  useEffect(() => {
    if (pendingSearchFocus.value) {
      pendingSearchFocus.value = false;
      searchBox.current?.focus();
    }
  }, []);

  const rows = list?.items ?? [];
  const shown = useMemo(() => applyQuery(rows, query), [rows, query]);
  const rowClusters = useMemo(() => [...new Set(rows.map((row) => row.cluster))], [rows]);
  const multiCluster = clusterCount(clusterState, rowClusters) >= 2;
  const clusterNames = useMemo(() => {
    const names = new Set<string>(rowClusters);
    for (const cluster of clusterState.clusters ?? []) names.add(cluster.name);
    for (const status of list?.clusters ?? []) names.add(status.name);
    const core = clusterState.clusters?.find((c) => c.core)?.name;
    return [...names].sort((a, b) => Number(b === core) - Number(a === core) || a.localeCompare(b));
  }, [rowClusters, clusterState.clusters, list]);
  const namespaces = useMemo(() => [...new Set(rows.map((row) => row.namespace))].sort(), [rows]);

  // The benchmark reads these: first rows on screen, then the page answering input.
  useLayoutEffect(() => {
    if (timed.current || !list) return;
    timed.current = true;
    const firstRender = performance.now();
    window.__varroaTiming = { firstRender, interactive: firstRender };
    requestAnimationFrame(() =>
      setTimeout(() => {
        window.__varroaTiming = { firstRender, interactive: performance.now() };
      }, 0),
    );
  }, [list]);

  const update = (change: Partial<ControllersQuery>, replace = false) =>
    navigate(`${BASE}/controllers${formatQuery({ ...query, ...change })}`, replace);

  const columns = multiCluster ? [COLUMNS[0], { key: 'cluster' as SortKey, label: 'Cluster' }, ...COLUMNS.slice(1)] : COLUMNS;

  return (
    <>
      <PageHeading title="Controllers">
        <a class="button" href={`${BASE}/controllers/new`}>
          New controller
        </a>
        <LiveIndicator updatedAt={polled.updatedAt} staleSince={polled.staleSince} error={polled.error} />
      </PageHeading>
      {list ? <ClusterWarnings statuses={list.clusters ?? []} /> : null}
      {multiCluster ? (
        <div class="chips" role="group" aria-label="Filter by cluster">
          <a class="chip" href={`${BASE}/controllers${formatQuery({ ...query, cluster: '' })}`} aria-current={!query.cluster ? 'true' : undefined}>
            All clusters
          </a>
          {clusterNames.map((name) => (
            <a
              class="chip"
              key={name}
              data-cluster-chip={name}
              href={`${BASE}/controllers${formatQuery({ ...query, cluster: query.cluster === name ? '' : name })}`}
              aria-current={query.cluster === name ? 'true' : undefined}
            >
              {name}
            </a>
          ))}
        </div>
      ) : null}
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <div class="field grow">
          <label for="controllers-search">Search</label>
          <input
            id="controllers-search"
            ref={searchBox}
            type="search"
            aria-label="Search controllers"
            placeholder="Name, namespace, bundle, label…  (press /)"
            value={query.q}
            onInput={(event) => update({ q: (event.target as HTMLInputElement).value }, true)}
          />
        </div>
        <Select
          label="Cluster"
          value={query.cluster}
          anyLabel="All clusters"
          options={clusterNames.map((name) => ({ value: name, label: name }))}
          onChange={(cluster) => update({ cluster })}
        />
        <Select
          label="Namespace"
          value={query.namespace}
          anyLabel="All namespaces"
          options={namespaces.map((name) => ({ value: name, label: name }))}
          onChange={(namespace) => update({ namespace })}
        />
        <Select
          label="Phase"
          value={query.phase}
          anyLabel="Any phase"
          options={PHASES.map((phase) => ({ value: phase, label: phase }))}
          onChange={(phase) => update({ phase })}
        />
        <Select
          label="Attention"
          value={query.attention}
          anyLabel="Any"
          options={[
            { value: 'true', label: 'Needs attention' },
            { value: 'false', label: 'Nothing to do' },
            ...ATTENTION_PRECEDENCE.map((signal) => ({ value: signal, label: signal })),
          ]}
          onChange={(attention) => update({ attention })}
        />
      </form>
      {polled.error && !list ? <ErrorNote what="the controllers" error={polled.error} /> : null}
      {!list && !polled.error ? <Loading what="controllers from every cluster" /> : null}
      {list ? (
        <>
          <p class="count" aria-live="polite">
            {shown.length === rows.length
              ? `${rows.length} controller${rows.length === 1 ? '' : 's'}`
              : `${shown.length} of ${rows.length} controllers match`}
          </p>
          <div class="table-scroll">
            <table aria-label="Controllers" class="data controllers">
              <thead>
                <tr>
                  {columns.map((column) => (
                    <SortHeader column={column} query={query} key={column.key} />
                  ))}
                </tr>
              </thead>
              <tbody>
                {shown.map((row) => (
                  <tr data-controller={`${row.cluster}/${row.namespace}/${row.name}`} key={`${row.cluster}/${row.namespace}/${row.name}`}>
                    <td class="name">
                      <a href={controllerHref(row.cluster, row.namespace, row.name)}>{row.name}</a>
                    </td>
                    {multiCluster ? <td>{row.cluster}</td> : null}
                    <td>{row.namespace}</td>
                    <td>
                      <PhaseBadge phase={row.phase} />
                    </td>
                    <td>
                      <AttentionBadge attention={row.attention} />
                    </td>
                    <td class="bundle">
                      {row.bundle || <span class="muted">—</span>}
                      {row.revision ? (
                        <code class="digest" title={row.revision}>
                          {shortDigest(row.revision)}
                        </code>
                      ) : null}
                    </td>
                    <td>
                      <LastApplyCell row={row} now={now} />
                    </td>
                    <td>
                      <RelTime value={row.createdAt} now={now} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {rows.length === 0 ? (
            <Empty>
              No controllers to show: none is registered in the clusters that answered, or your VarroaRoleBindings let
              you see none.
            </Empty>
          ) : shown.length === 0 ? (
            <Empty>
              No controller matches these filters. <a href={`${BASE}/controllers`}>Clear the filters</a>.
            </Empty>
          ) : null}
        </>
      ) : null}
    </>
  );
}
