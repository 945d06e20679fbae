import { useMemo } from 'preact/hooks';
import { getJson, query } from '../api';
import { filterOperations, parseOperationsFilter, sortOperations } from '../brood';
import { ClusterWarnings } from '../components/ClusterWarnings';
import { DataTable, Empty, ErrorNote, LiveIndicator, Loading, PageHeading, PhaseBadge, RelTime } from '../components/common';
import { ProgressBar } from '../components/ProgressBar';
import { useNow, usePolling } from '../live';
import { BASE, broodOperationHref } from '../router';
import type { BroodOperationList, BroodOperationRow } from '../types';

const PHASES = ['Pending', 'Running', 'Paused', 'Succeeded', 'Failed', 'Cancelled'];

function operationKey(row: BroodOperationRow): string {
  return `${row.cluster}/${row.namespace}/${row.name}`;
}

function listHref(cluster: string, phase: string): string {
  return `${BASE}/broodoperations${query({ cluster, phase })}`;
}

/** Every BroodOperation in every cluster that answered, under way first, with its targets as a progress bar. */
export function BroodOperationsPage({ search }: { search: string }) {
  const filter = useMemo(() => parseOperationsFilter(search), [search]);
  const polled = usePolling(() => getJson<BroodOperationList>('/broodoperations'), 'broodoperations');
  const now = useNow();
  const list = polled.data;
  const rows = useMemo(() => sortOperations(list?.operations ?? []), [list]);
  const shown = useMemo(() => filterOperations(rows, filter), [rows, filter]);
  const clusters = useMemo(() => {
    const names = new Set<string>(rows.map((row) => row.cluster));
    for (const status of list?.clusters ?? []) names.add(status.name);
    return [...names].sort();
  }, [rows, list]);

  return (
    <>
      <PageHeading title="Brood operations">
        <LiveIndicator updatedAt={polled.updatedAt} staleSince={polled.staleSince} error={polled.error} />
      </PageHeading>
      <p class="intro muted">
        Maintenance run on many controllers across clusters, declared as BroodOperation objects (in Git or with{' '}
        <code>varroactl broodop create -f FILE</code>). The dashboard only shows them.
      </p>
      {list ? <ClusterWarnings statuses={list.clusters ?? []} what="brood operations" /> : null}
      {list && rows.length > 0 ? (
        <div class="chips" role="group" aria-label="Filter by phase">
          <a class="chip" href={listHref(filter.cluster, '')} aria-current={!filter.phase ? 'true' : undefined}>
            Any phase
          </a>
          {PHASES.map((phase) => (
            <a
              class="chip"
              key={phase}
              href={listHref(filter.cluster, filter.phase === phase ? '' : phase)}
              aria-current={filter.phase === phase ? 'true' : undefined}
            >
              {phase}
            </a>
          ))}
          {clusters.length >= 2
            ? clusters.map((cluster) => (
                <a
                  class="chip"
                  key={'cluster-' + cluster}
                  data-cluster-chip={cluster}
                  href={listHref(filter.cluster === cluster ? '' : cluster, filter.phase)}
                  aria-current={filter.cluster === cluster ? 'true' : undefined}
                >
                  {cluster}
                </a>
              ))
            : null}
        </div>
      ) : null}
      {polled.error && !list ? <ErrorNote what="the brood operations" error={polled.error} /> : null}
      {!list && !polled.error ? <Loading what="brood operations from every cluster" /> : null}
      {list ? (
        <>
          <p class="count" aria-live="polite">
            {shown.length === rows.length
              ? `${rows.length} operation${rows.length === 1 ? '' : 's'}`
              : `${shown.length} of ${rows.length} operations match`}
          </p>
          {shown.length > 0 ? (
            <DataTable
              label="Brood operations"
              class="brood-operations"
              columns={['Name', 'Cluster', 'Namespace', 'Phase', 'Progress', 'Steps', 'Started', 'Completed', 'Schedule']}
            >
              {shown.map((row) => (
                <tr data-operation={operationKey(row)} key={operationKey(row)}>
                  <td class="name">
                    <a href={broodOperationHref(row.cluster, row.namespace, row.name)}>{row.name}</a>
                    {row.dryRun ? <span class="tag">dry run</span> : null}
                  </td>
                  <td>{row.cluster}</td>
                  <td>{row.namespace}</td>
                  <td>
                    <PhaseBadge phase={row.phase || 'Pending'} />
                  </td>
                  <td class="progress-cell">
                    <ProgressBar counts={row.counts} label={`Targets of ${row.name}`} />
                    {row.message ? <div class="row-message muted">{row.message}</div> : null}
                  </td>
                  <td class="steps-cell">{(row.steps ?? []).join(' → ') || <span class="muted">—</span>}</td>
                  <td>
                    <RelTime value={row.startedAt} now={now} empty="not yet" />
                  </td>
                  <td>
                    <RelTime value={row.completedAt} now={now} />
                  </td>
                  <td>{row.schedule || <span class="muted">—</span>}</td>
                </tr>
              ))}
            </DataTable>
          ) : null}
          {rows.length === 0 ? (
            <Empty>
              No brood operations in the clusters that answered, or your VarroaRoleBindings let you see none. See{' '}
              <code>docs/brood-operations.md</code> for how to start one.
            </Empty>
          ) : shown.length === 0 ? (
            <Empty>
              No operation matches these filters. <a href={`${BASE}/broodoperations`}>Clear the filters</a>.
            </Empty>
          ) : null}
        </>
      ) : null}
    </>
  );
}
