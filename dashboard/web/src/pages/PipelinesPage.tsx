import { useMemo, useState } from 'preact/hooks';
import { getJson } from '../api';
import { ClusterWarnings } from '../components/ClusterWarnings';
import { DataTable, Empty, ErrorNote, LiveIndicator, Loading, PageHeading, RelTime } from '../components/common';
import { useActivityRefresh, useNow, usePolling } from '../live';
import {
  choices,
  concernsPipelines,
  filterPipelines,
  parsePipelinesFilter,
  pipelinesHref,
  runCommand,
  sortPipelines,
  type PipelineList,
  type PipelineRow,
  type PipelinesFilter,
} from '../pipelines';
import { navigate, runHref } from '../router';
import { RunResult } from '../runs';
import { duration } from '../time';

function rowKey(row: PipelineRow): string {
  return `${row.cluster}/${row.namespace}/${row.team}/${row.pipeline}`;
}

/** The command that runs the pipeline; copying it is all the page does. */
function RunCommand({ row }: { row: PipelineRow }) {
  const [copied, setCopied] = useState('');
  const command = runCommand(row);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(command);
      setCopied('Copied.');
    } catch {
      setCopied('The browser refused the clipboard: select the command and copy it.');
    }
  };
  return (
    <div class="run-command">
      <code data-run-command>{command}</code>{' '}
      <button type="button" class="button secondary" onClick={copy} aria-label={`Copy the command that runs ${row.team}/${row.pipeline}`}>
        Copy
      </button>
      {copied ? <span class="muted"> {copied}</span> : null}
    </div>
  );
}

function LastRun({ row, now }: { row: PipelineRow; now: number }) {
  const run = row.lastRun;
  if (!run) return <span class="muted">none recorded</span>;
  return (
    <>
      <a href={runHref(run.runId)}>
        <RunResult run={run} />
      </a>
      {run.durationMillis !== null ? <span class="muted"> {duration(run.durationMillis)}</span> : null}
      <div>
        <RelTime value={run.startedAt ?? run.queuedAt} now={now} />
      </div>
    </>
  );
}

function Triggers({ row }: { row: PipelineRow }) {
  const parts: string[] = [];
  if (row.triggers.cron) parts.push(`cron ${row.triggers.cron}`);
  if (row.triggers.pollScm) parts.push(`poll ${row.triggers.pollScm}`);
  if (row.triggers.push) parts.push('push');
  return parts.length > 0 ? <div class="muted">{parts.join(' · ')}</div> : null;
}

function FilterSelect({
  label,
  column,
  options,
  filter,
}: {
  label: string;
  column: keyof PipelinesFilter;
  options: string[];
  filter: PipelinesFilter;
}) {
  const id = `pipelines-filter-${column}`;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select
        id={id}
        value={filter[column]}
        onChange={(event) => navigate(pipelinesHref({ ...filter, [column]: (event.target as HTMLSelectElement).value }))}
      >
        <option value="">any</option>
        {options.map((option) => (
          <option value={option} key={option}>
            {option}
          </option>
        ))}
        {filter[column] && !options.includes(filter[column]) ? <option value={filter[column]}>{filter[column]}</option> : null}
      </select>
    </div>
  );
}

/**
 * Every pipeline of every Team the reader may see, across clusters: cell, kind, last run, next cron run and the
 * command that runs it. Read-only; filters live in the URL; refreshed every few seconds and when a cell's activity
 * arrives, so a run that starts or ends shows without a reload.
 */
export function PipelinesPage({ search }: { search: string }) {
  const filter = useMemo(() => parsePipelinesFilter(search), [search]);
  const polled = usePolling(() => getJson<PipelineList>('/pipelines'), 'pipelines');
  const now = useNow();
  const list = polled.data;
  const rows = useMemo(() => sortPipelines(list?.pipelines ?? []), [list]);
  const shown = useMemo(() => filterPipelines(rows, filter), [rows, filter]);
  useActivityRefresh(polled.refresh, (event) => concernsPipelines(event, rows), 'pipelines');
  return (
    <>
      <PageHeading title="Pipelines">
        <LiveIndicator updatedAt={polled.updatedAt} staleSince={polled.staleSince} error={polled.error} />
      </PageHeading>
      <p class="intro muted">
        The pipelines of the Teams you may see, on the cells that run them. The dashboard changes nothing: copy a
        pipeline's command to run it.
      </p>
      {list ? <ClusterWarnings statuses={list.clusters ?? []} what="pipelines" /> : null}
      {polled.error && !list ? <ErrorNote what="the pipelines" error={polled.error} /> : null}
      {!list && !polled.error ? <Loading what="pipelines from every cluster" /> : null}
      {list ? (
        <>
          <div class="filters" role="group" aria-label="Filter pipelines">
            <FilterSelect label="Cluster" column="cluster" options={choices(rows, 'cluster')} filter={filter} />
            <FilterSelect label="Namespace" column="namespace" options={choices(rows, 'namespace')} filter={filter} />
            <FilterSelect label="Team" column="team" options={choices(rows, 'team')} filter={filter} />
          </div>
          <p class="count" aria-live="polite">
            {shown.length === rows.length
              ? `${rows.length} pipeline${rows.length === 1 ? '' : 's'}`
              : `${shown.length} of ${rows.length} pipelines match`}
            {list.recordStore === false ? ' · last runs are not known: the build record store is not enabled' : ''}
          </p>
          {shown.length > 0 ? (
            <DataTable
              label="Pipelines"
              class="pipelines"
              columns={['Pipeline', 'Cluster', 'Namespace', 'Cell', 'Kind', 'Last run', 'Next run', 'Run it']}
            >
              {shown.map((row) => (
                <tr data-pipeline={rowKey(row)} key={rowKey(row)}>
                  <td class="name">
                    {row.team}/{row.pipeline}
                    <div class="muted">
                      {row.repository}
                      {row.branch ? ` @ ${row.branch}` : ''}
                    </div>
                    <Triggers row={row} />
                  </td>
                  <td>{row.cluster}</td>
                  <td>{row.namespace}</td>
                  <td>{row.cell ?? <span class="muted">waiting for a cell</span>}</td>
                  <td>
                    <span class={`tag kind-${row.kind}`} title={row.kind === 'unknown' ? 'the core does not read a member cluster Team\'s bundle' : undefined}>
                      {row.kind}
                    </span>
                  </td>
                  <td>
                    <LastRun row={row} now={now} />
                  </td>
                  <td>
                    <RelTime value={row.nextRun} now={now} empty={row.triggers.cron ? 'never' : 'no timer'} />
                  </td>
                  <td>
                    <RunCommand row={row} />
                  </td>
                </tr>
              ))}
            </DataTable>
          ) : null}
          {rows.length === 0 ? (
            <Empty>No pipelines in the clusters that answered, or your VarroaRoleBindings let you see none.</Empty>
          ) : shown.length === 0 ? (
            <Empty>
              No pipeline matches these filters. <a href={pipelinesHref({ cluster: '', namespace: '', team: '' })}>Show all</a>.
            </Empty>
          ) : null}
        </>
      ) : null}
    </>
  );
}
