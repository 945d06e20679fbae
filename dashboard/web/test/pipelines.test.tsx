import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  concernsPipelines,
  filterPipelines,
  parsePipelinesFilter,
  pipelinesHref,
  runCommand,
  sortPipelines,
  type PipelineRow,
} from '../src/pipelines';
import type { ActivityEvent } from '../src/types';

function pipeline(team: string, name: string, extra: Partial<PipelineRow> = {}): PipelineRow {
  return {
    cluster: 'eu-1',
    namespace: 'tenant-a',
    team,
    pipeline: name,
    cell: 'shared-0',
    cellNamespace: 'cells',
    job: `tenant-a_${team}/${name}`,
    repository: `https://git.example/${team}.git`,
    branch: null,
    scriptPath: null,
    kind: 'pipeline',
    triggers: { cron: null, pollScm: null, push: false },
    lastRun: null,
    nextRun: null,
    ...extra,
  };
}

function event(cluster: string, namespace: string, controller: string): ActivityEvent {
  return { id: '1', cluster, namespace, controller, kind: 'mite.connected', actor: 'gateway/g', summary: '', occurredAt: '' };
}

describe('pipelines', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('reads the filters from the URL and writes them back', () => {
    const filter = parsePipelinesFilter('?cluster=east&team=payments');
    expect(filter).toEqual({ cluster: 'east', namespace: '', team: 'payments' });
    expect(pipelinesHref(filter)).toBe('/ui/pipelines?cluster=east&team=payments');
    expect(pipelinesHref({ cluster: '', namespace: '', team: '' })).toBe('/ui/pipelines');
  });

  it('filters by cluster, namespace and team and keeps a Team’s pipelines in spec order', () => {
    const rows = sortPipelines([
      pipeline('payments', 'nightly'),
      pipeline('payments', 'build'),
      pipeline('data', 'etl', { cluster: 'east', namespace: 'tenant-b' }),
    ]);
    expect(rows.map((r) => `${r.cluster}/${r.team}/${r.pipeline}`)).toEqual([
      'east/data/etl',
      'eu-1/payments/nightly',
      'eu-1/payments/build',
    ]);
    expect(filterPipelines(rows, { cluster: 'east', namespace: '', team: '' })).toHaveLength(1);
    expect(filterPipelines(rows, { cluster: '', namespace: 'tenant-a', team: 'payments' })).toHaveLength(2);
    expect(filterPipelines(rows, { cluster: '', namespace: 'tenant-b', team: 'payments' })).toHaveLength(0);
  });

  it('builds the run command with the team, the pipeline, the namespace and the cluster', () => {
    expect(runCommand(pipeline('payments', 'build', { cluster: 'east' }))).toBe(
      'varroactl run pipeline payments/build -n tenant-a --cluster east',
    );
  });

  it('refreshes on activity of a cell that runs a listed pipeline only', () => {
    const rows = [pipeline('payments', 'build')];
    expect(concernsPipelines(event('eu-1', 'cells', 'shared-0'), rows)).toBe(true);
    expect(concernsPipelines(event('eu-1', 'cells', 'shared-1'), rows)).toBe(false);
    expect(concernsPipelines(event('east', 'cells', 'shared-0'), rows)).toBe(false);
  });

  it('draws a row per pipeline with kind, last run, next run and the command to copy', async () => {
    const { PipelinesPage } = await import('../src/pages/PipelinesPage');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        new Response(
          JSON.stringify({
            pipelines: [
              pipeline('payments', 'build', {
                lastRun: {
                  runId: 'r-2',
                  build: 2,
                  result: 'FAILURE',
                  durationMillis: 42000,
                  queuedAt: '2026-12-04T11:00:00Z',
                  startedAt: '2026-12-04T11:00:05Z',
                  completedAt: '2026-12-04T11:00:47Z',
                },
              }),
              pipeline('payments', 'nightly', {
                triggers: { cron: '0 2 * * *', pollScm: null, push: false },
                nextRun: '2099-12-06T02:00:00Z',
                lastRun: {
                  runId: 'r-3',
                  build: 1,
                  result: null,
                  durationMillis: null,
                  queuedAt: '2026-12-04T11:00:00Z',
                  startedAt: '2026-12-04T11:00:05Z',
                  completedAt: null,
                },
              }),
              pipeline('data', 'etl', { cluster: 'east', namespace: 'tenant-b', kind: 'unknown', cell: null }),
            ],
            recordStore: true,
            clusters: [
              { name: 'east', ok: true },
              { name: 'eu-2', ok: false, reason: 'list unavailable' },
            ],
          }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        ),
      ),
    );
    render(<PipelinesPage search="?namespace=tenant-a" />);
    const commands = await screen.findAllByText(/^varroactl run pipeline/);
    expect(commands.map((c) => c.textContent)).toEqual([
      'varroactl run pipeline payments/build -n tenant-a --cluster eu-1',
      'varroactl run pipeline payments/nightly -n tenant-a --cluster eu-1',
    ]);
    expect(screen.getByText('2 of 3 pipelines match')).toBeTruthy();
    expect(screen.getByText('FAILURE')).toBeTruthy();
    expect(screen.getByText('42 s')).toBeTruthy();
    expect(screen.getByText('running')).toBeTruthy();
    expect(screen.getByText(/^in \d+ d$/)).toBeTruthy();
    expect(screen.getByText('no timer')).toBeTruthy();
    expect(screen.getByText('cron 0 2 * * *')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Cluster eu-2:');
    expect((screen.getByLabelText('Namespace') as HTMLSelectElement).value).toBe('tenant-a');
  });

  it('shows a member Team’s pipeline as kind unknown and waiting for a cell', async () => {
    const { PipelinesPage } = await import('../src/pages/PipelinesPage');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        new Response(
          JSON.stringify({
            pipelines: [pipeline('data', 'etl', { cluster: 'east', namespace: 'tenant-b', kind: 'unknown', cell: null })],
            recordStore: false,
            clusters: [{ name: 'east', ok: true }],
          }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        ),
      ),
    );
    render(<PipelinesPage search="" />);
    expect(await screen.findByText('unknown')).toBeTruthy();
    expect(screen.getByText('waiting for a cell')).toBeTruthy();
    expect(screen.getByText('none recorded')).toBeTruthy();
    expect(screen.getByText(/the build record store is not enabled/)).toBeTruthy();
  });
});
