import { useEffect, useState } from 'preact/hooks';
import { getJson, query } from '../../api';
import { DataTable, Empty, ErrorNote, Loading, RelTime } from '../../components/common';
import { usePolling, useNow } from '../../live';
import { runHref } from '../../router';
import { RunResult, StagePills, TestsCell } from '../../runs';
import { duration } from '../../time';
import type { Run, RunDetail } from '../../types';

const RECENT_RUNS = 20;
/** Stages and tests come with each run's own read; only the newest few are asked for. */
const DETAILED_RUNS = 10;

interface Props {
  cluster: string;
  namespace: string;
  name: string;
  core: string | undefined;
}

export function RunsTab({ cluster, namespace, name, core }: Props) {
  const now = useNow();
  const polled = usePolling(
    () =>
      getJson<{ items: Run[]; recordStore: boolean }>(
        '/runs' + query({ cluster, namespace, controller: name, limit: RECENT_RUNS }),
      ),
    `runs ${cluster}/${namespace}/${name}`,
  );
  const [details, setDetails] = useState<Record<string, RunDetail>>({});
  const runs = polled.data?.items ?? [];

  useEffect(() => {
    let cancelled = false;
    for (const run of runs.slice(0, DETAILED_RUNS)) {
      const known = details[run.runId];
      // A finished run's stages and tests no longer change.
      if (known && known.completedAt) continue;
      getJson<RunDetail>(`/runs/${encodeURIComponent(run.runId)}`).then(
        (detail) => {
          if (!cancelled) setDetails((d) => ({ ...d, [run.runId]: detail }));
        },
        () => {},
      );
    }
    return () => {
      cancelled = true;
    };
    // details is read only to skip finished runs, so it is not a reason to fetch again
  }, [polled.updatedAt]);

  if (polled.error && !polled.data) return <ErrorNote what="the runs" error={polled.error} />;
  if (!polled.data) return <Loading what="recent runs" />;
  return (
    <section aria-labelledby="h-runs">
      <h2 id="h-runs">Recent runs</h2>
      {core && cluster !== core ? (
        <p class="muted">Console logs are served only for controllers on the core cluster ({core}).</p>
      ) : null}
      {!polled.data.recordStore ? (
        <Empty>
          No run history: the record store is not enabled for this installation, so the dashboard keeps no runs (see
          VARROA_RECORD_STORE_ENABLED).
        </Empty>
      ) : runs.length === 0 ? (
        <Empty>This controller has no recorded runs yet: runs appear here once a build is queued.</Empty>
      ) : (
        <DataTable label="Runs" class="runs" columns={['Run', 'Result', 'Started', 'Duration', 'Stages', 'Tests']}>
          {runs.map((run, index) => (
            <tr data-run={run.runId} key={run.runId}>
              <td>
                <a href={runHref(run.runId)}>
                  {run.job} #{run.build}
                </a>
              </td>
              <td>
                <RunResult run={run} />
              </td>
              <td>
                <RelTime value={run.startedAt || run.queuedAt} now={now} />
              </td>
              <td>{duration(run.durationMillis)}</td>
              {index < DETAILED_RUNS ? (
                <>
                  <td>
                    <StagePills run={details[run.runId]} />
                  </td>
                  <td>
                    <TestsCell tests={details[run.runId]?.tests} />
                  </td>
                </>
              ) : (
                <td colSpan={2} class="muted">
                  on the run's page
                </td>
              )}
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
