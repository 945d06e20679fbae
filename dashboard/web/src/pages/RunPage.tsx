import { getJson } from '../api';
import { coreName, useClusters } from '../clusters';
import { DataTable, Empty, ErrorNote, LiveIndicator, Loading, PageHeading, RelTime } from '../components/common';
import { LogView } from '../components/LogView';
import { useNow, usePolling } from '../live';
import { controllerHref } from '../router';
import { RunResult, resultClass, testsText } from '../runs';
import { duration } from '../time';
import type { RunDetail } from '../types';

export function RunPage({ runId }: { runId: string }) {
  const polled = usePolling(() => getJson<RunDetail>(`/runs/${encodeURIComponent(runId)}`), `run ${runId}`);
  const clusters = useClusters();
  const now = useNow();
  const run = polled.data;
  if (!run) {
    return (
      <>
        <h1>Run {runId}</h1>
        {polled.error ? <ErrorNote what={`run ${runId}`} error={polled.error} /> : <Loading what={`run ${runId}`} />}
      </>
    );
  }
  const core = coreName(clusters);
  const logsServed = !core || run.cluster === core;
  return (
    <>
      <nav aria-label="Breadcrumb" class="breadcrumb">
        <a href={controllerHref(run.cluster, run.namespace, run.controller, 'runs')}>
          {run.cluster} / {run.namespace} / {run.controller}
        </a>
      </nav>
      <PageHeading
        title={
          <>
            {run.job} #{run.build}
          </>
        }
      >
        <RunResult run={run} />
        <LiveIndicator updatedAt={polled.updatedAt} staleSince={polled.staleSince} error={polled.error} />
      </PageHeading>
      <div class="cards">
        <section class="card" aria-labelledby="h-run">
          <h2 id="h-run">Run</h2>
          <dl>
            <div class="field-row">
              <dt>Cause</dt>
              <dd>{run.cause || <span class="muted">—</span>}</dd>
            </div>
            <div class="field-row">
              <dt>Node</dt>
              <dd>{run.node || <span class="muted">—</span>}</dd>
            </div>
            <div class="field-row">
              <dt>Queued</dt>
              <dd>
                <RelTime value={run.queuedAt} now={now} />
                {run.queuedMillis ? <span class="muted"> · waited {duration(run.queuedMillis)}</span> : null}
              </dd>
            </div>
            <div class="field-row">
              <dt>Started</dt>
              <dd>
                <RelTime value={run.startedAt} now={now} empty="not yet" />
              </dd>
            </div>
            <div class="field-row">
              <dt>Completed</dt>
              <dd>
                <RelTime value={run.completedAt} now={now} empty="still running" />
              </dd>
            </div>
            <div class="field-row">
              <dt>Duration</dt>
              <dd>{duration(run.durationMillis) || <span class="muted">—</span>}</dd>
            </div>
          </dl>
        </section>
        <section class="card" aria-labelledby="h-tests">
          <h2 id="h-tests">Tests</h2>
          {run.tests ? (
            <p class={run.tests.failed ? 'bad' : 'ok'} data-tests-total={run.tests.total}>
              {run.tests.total} tests: {testsText(run.tests)}
            </p>
          ) : (
            <Empty>This run reported no test results.</Empty>
          )}
        </section>
      </div>
      <section aria-labelledby="h-stages">
        <h2 id="h-stages">Stages</h2>
        {run.stages?.length ? (
          <DataTable label="Stages" columns={['Stage', 'Status', 'Started', 'Duration']}>
            {run.stages.map((stage) => (
              <tr data-stage={stage.name} key={stage.id}>
                <th scope="row">
                  {stage.parallelBranch ? <span class="muted">{stage.parallelBranch} / </span> : null}
                  {stage.name}
                </th>
                <td>
                  <span class={`result ${resultClass(stage.status)}`}>{stage.status}</span>
                </td>
                <td>
                  <RelTime value={stage.startedAt} now={now} />
                </td>
                <td>{duration(stage.durationMillis)}</td>
              </tr>
            ))}
          </DataTable>
        ) : (
          <Empty>No stages recorded: a freestyle job, or the pipeline has not reached its first stage.</Empty>
        )}
      </section>
      {logsServed ? (
        <LogView runId={run.runId} live={!run.completedAt} />
      ) : (
        <Empty>
          Console logs are served only for controllers on the core cluster ({core}); open this build in the member's
          Jenkins.
        </Empty>
      )}
    </>
  );
}
