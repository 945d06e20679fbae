import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import {
  currentStepLabel,
  filterOperations,
  groupJobSchedules,
  inTimeZone,
  operationCommands,
  parseOperationsFilter,
  pausedNote,
  progress,
  sortOperations,
  stepTypes,
  targetMessage,
  targetPhaseCounts,
} from '../src/brood';
import { ClusterWarnings } from '../src/components/ClusterWarnings';
import { ProgressBar } from '../src/components/ProgressBar';
import type { BroodOperationObject, BroodOperationRow, JobScheduleRow } from '../src/types';

function operationRow(name: string, extra: Partial<BroodOperationRow> = {}): BroodOperationRow {
  return {
    cluster: 'eu-1',
    namespace: 'ci',
    name,
    phase: 'Succeeded',
    message: null,
    dryRun: false,
    steps: ['backup'],
    counts: { total: 1, succeeded: 1 },
    createdAt: '2026-12-01T10:00:00Z',
    startedAt: '2026-12-01T10:00:01Z',
    completedAt: '2026-12-01T10:05:00Z',
    schedule: null,
    ...extra,
  };
}

function operation(extra: Partial<BroodOperationObject> = {}): BroodOperationObject {
  return {
    metadata: { name: 'weekly-restart', namespace: 'ci' },
    spec: {
      targets: { clusters: ['*'] },
      steps: [{ type: 'backup' }, { type: 'pause', note: 'check the backup in the bucket' }, { type: 'safeRestart' }],
    },
    status: { phase: 'Running', steps: ['backup', 'pause', 'safeRestart'] },
    ...extra,
  };
}

describe('brood operation progress', () => {
  afterEach(cleanup);

  it('draws one segment per phase with targets, its share of the total, and says it in words', () => {
    const bar = progress({ total: 10, succeeded: 3, failed: 1, running: 2, pending: 4 });
    expect(bar.total).toBe(10);
    expect(bar.finished).toBe(4);
    expect(bar.segments.map((s) => [s.part, s.count, s.percent])).toEqual([
      ['succeeded', 3, 30],
      ['failed', 1, 10],
      ['running', 2, 20],
      ['pending', 4, 40],
    ]);
    expect(bar.summary).toBe('3 of 10 succeeded, 1 failed, 2 running, 4 pending');
  });

  it('counts targets the counts leave out as pending, and never overflows a total smaller than its parts', () => {
    expect(progress({ total: 5, succeeded: 2 }).segments.map((s) => [s.part, s.count])).toEqual([
      ['succeeded', 2],
      ['pending', 3],
    ]);
    const overfull = progress({ total: 2, succeeded: 2, unknown: 1 });
    expect(overfull.total).toBe(3);
    expect(overfull.segments.reduce((sum, s) => sum + s.percent, 0)).toBeCloseTo(100);
    expect(overfull.summary).toBe('2 of 3 succeeded, 1 unknown');
  });

  it('reads missing or empty counts as no targets', () => {
    expect(progress(null)).toEqual({ total: 0, finished: 0, segments: [], summary: 'no targets' });
    expect(progress({}).summary).toBe('no targets');
  });

  it('renders the bar as a progressbar whose value is the finished targets', () => {
    render(<ProgressBar counts={{ total: 4, succeeded: 1, failed: 1, running: 1, pending: 1 }} label="Targets of x" />);
    const bar = screen.getByRole('progressbar', { name: 'Targets of x' });
    expect(bar.getAttribute('aria-valuemax')).toBe('4');
    expect(bar.getAttribute('aria-valuenow')).toBe('2');
    expect(bar.getAttribute('aria-valuetext')).toBe('1 of 4 succeeded, 1 failed, 1 running, 1 pending');
    const parts = [...bar.querySelectorAll<HTMLElement>('[data-part]')].map((p) => [p.dataset.part, p.style.width]);
    expect(parts).toEqual([
      ['succeeded', '25%'],
      ['failed', '25%'],
      ['running', '25%'],
    ]);
  });
});

describe('brood operations list', () => {
  afterEach(cleanup);

  it('puts operations under way first, then the newest', () => {
    const rows = [
      operationRow('old-done', { createdAt: '2026-12-01T08:00:00Z' }),
      operationRow('new-done', { createdAt: '2026-12-02T08:00:00Z' }),
      operationRow('paused', { phase: 'Paused', createdAt: '2026-11-01T08:00:00Z' }),
      operationRow('running', { phase: 'Running', createdAt: '2026-11-02T08:00:00Z' }),
    ];
    expect(sortOperations(rows).map((r) => r.name)).toEqual(['running', 'paused', 'new-done', 'old-done']);
  });

  it('filters by cluster and phase from the URL', () => {
    const rows = [
      operationRow('a', { cluster: 'eu-1', phase: 'Failed' }),
      operationRow('b', { cluster: 'us-2', phase: 'Failed' }),
      operationRow('c', { cluster: 'us-2', phase: 'Running' }),
    ];
    expect(filterOperations(rows, parseOperationsFilter('?cluster=us-2&phase=Failed')).map((r) => r.name)).toEqual(['b']);
    expect(filterOperations(rows, parseOperationsFilter('')).map((r) => r.name)).toEqual(['a', 'b', 'c']);
  });

  it('names a cluster whose list did not arrive and says its brood operations are missing', () => {
    const statuses = [
      { name: 'eu-1', ok: true },
      { name: 'us-2', ok: false, reason: 'list unavailable' },
    ];
    render(<ClusterWarnings statuses={statuses} what="brood operations" />);
    const alert = screen.getByRole('alert');
    expect(alert.getAttribute('data-cluster-warning')).toBe('us-2');
    expect(alert.textContent).toContain('Cluster us-2: list unavailable. Its brood operations are not shown');
  });
});

describe('brood operation targets', () => {
  it('labels the current step by its number and type, the last one once finished', () => {
    const types = ['backup', 'pause', 'safeRestart'];
    expect(currentStepLabel({ step: 1 }, types)).toBe('2/3 pause');
    expect(currentStepLabel({}, types)).toBe('1/3 backup');
    expect(currentStepLabel({ step: 3 }, types)).toBe('3/3 safeRestart');
    expect(currentStepLabel({ step: 0 }, [])).toBe('');
  });

  it("shows a paused target's pause-step note, or that the operation is suspended", () => {
    expect(pausedNote({ phase: 'Paused', step: 1 }, operation())).toBe(
      'Waits for a person to resume: check the backup in the bucket',
    );
    const suspended = operation();
    suspended.spec!.suspend = true;
    expect(pausedNote({ phase: 'Paused', step: 2 }, suspended)).toBe(
      'The operation is suspended: no step starts until it is resumed.',
    );
    expect(pausedNote({ phase: 'Running', step: 1 }, operation())).toBeNull();
  });

  it('offers pause and cancel while running, resume once paused, nothing once finished', () => {
    expect(operationCommands('eu-1', 'ci', 'weekly-restart', operation())).toEqual([
      'varroactl broodop pause weekly-restart --cluster eu-1 -n ci',
      'varroactl broodop cancel weekly-restart --cluster eu-1 -n ci',
    ]);
    expect(operationCommands('eu-1', 'ci', 'w', operation({ status: { phase: 'Paused' } }))[0]).toBe(
      'varroactl broodop resume w --cluster eu-1 -n ci',
    );
    expect(operationCommands('eu-1', 'ci', 'w', operation({ status: { phase: 'Failed' } }))).toEqual([]);
  });

  it("takes the run's step types from status, else from spec", () => {
    expect(stepTypes(operation())).toEqual(['backup', 'pause', 'safeRestart']);
    expect(stepTypes(operation({ status: {} }))).toEqual(['backup', 'pause', 'safeRestart']);
  });

  it("shows a target's message once, not again when a step result says the same", () => {
    const error = 'Jenkins refused the configuration';
    const failed = { type: 'reapplyConfiguration', phase: 'Failed', message: error };
    expect(targetMessage({ message: error, steps: [failed] })).toBeNull();
    expect(targetMessage({ message: 'waiting for 1 running build', steps: [{ type: 'safeRestart' }] })).toBe(
      'waiting for 1 running build',
    );
    expect(targetMessage({})).toBeNull();
  });

  it('counts targets per phase, the ones needing a look first', () => {
    expect(
      targetPhaseCounts([{ phase: 'Succeeded' }, { phase: 'Failed' }, { phase: 'Succeeded' }, {}, { phase: 'Running' }]),
    ).toEqual([
      ['Running', 1],
      ['Failed', 1],
      ['Pending', 1],
      ['Succeeded', 2],
    ]);
  });
});

describe('schedules', () => {
  it("shows a run time in the schedule's own time zone, across a daylight-saving change", () => {
    expect(inTimeZone('2026-03-29T00:30:00Z', 'Europe/Berlin')).toBe('Sun, 29 Mar 2026, 01:30 Europe/Berlin');
    expect(inTimeZone('2026-03-29T01:30:00Z', 'Europe/Berlin')).toBe('Sun, 29 Mar 2026, 03:30 Europe/Berlin');
    expect(inTimeZone('2026-03-29T01:30:00Z', null)).toBe('Sun, 29 Mar 2026, 01:30 UTC');
    expect(inTimeZone('2026-03-29T01:30:00Z', 'Mars/Olympus')).toBe('Sun, 29 Mar 2026, 01:30 UTC (unknown zone Mars/Olympus)');
    expect(inTimeZone(null, 'UTC')).toBe('');
  });

  it('groups job schedules per controller, jobs by name', () => {
    const job = (cluster: string, controller: string, name: string): JobScheduleRow => ({
      cluster,
      namespace: 'ci',
      controller,
      job: name,
      timerSpecs: ['H 2 * * *'],
      observedAt: null,
    });
    const groups = groupJobSchedules([job('us-2', 'a', 'nightly'), job('eu-1', 'b', 'z'), job('eu-1', 'b', 'a')]);
    expect(groups.map((g) => [g.cluster, g.controller, g.jobs.map((j) => j.job)])).toEqual([
      ['eu-1', 'b', ['a', 'z']],
      ['us-2', 'a', ['nightly']],
    ]);
  });
});
