// What the Brood Operations and Schedules pages show, worked out from the BFF's JSON without touching the page.
import { parseTime } from './time';
import type {
  BroodCounts,
  BroodOperationObject,
  BroodOperationRow,
  BroodScheduleRow,
  BroodStepResult,
  BroodTargetStatus,
  JobScheduleRow,
} from './types';

/** The bar's segments in the order they are drawn; pending is the empty rest of the bar. */
export const PROGRESS_PARTS = ['succeeded', 'failed', 'running', 'paused', 'unknown', 'cancelled', 'pending'] as const;
export type ProgressPart = (typeof PROGRESS_PARTS)[number];

export interface ProgressSegment {
  part: ProgressPart;
  count: number;
  /** Share of the bar, 0-100. */
  percent: number;
}

export interface Progress {
  total: number;
  /** Targets that will not move again: succeeded, failed, cancelled. */
  finished: number;
  segments: ProgressSegment[];
  /** "3 of 10 succeeded, 1 failed, 2 running, 4 pending": the bar in words, for its label and screen readers. */
  summary: string;
}

function count(counts: BroodCounts | null | undefined, part: ProgressPart | 'total'): number {
  const value = counts?.[part];
  return typeof value === 'number' && value > 0 ? Math.floor(value) : 0;
}

/**
 * The bar from the counts: one segment per phase with targets in it. A total smaller than the parts (counts from two
 * moments) is raised to their sum so the bar never overflows; a total larger than the parts shows the rest as pending.
 */
export function progress(counts: BroodCounts | null | undefined): Progress {
  const parts = PROGRESS_PARTS.map((part) => ({ part, count: count(counts, part) }));
  const sum = parts.reduce((total, p) => total + p.count, 0);
  const total = Math.max(count(counts, 'total'), sum);
  if (total > sum) parts[parts.length - 1].count += total - sum;
  const segments = parts
    .filter((p) => p.count > 0)
    .map((p) => ({ ...p, percent: total === 0 ? 0 : (p.count * 100) / total }));
  const finished = count(counts, 'succeeded') + count(counts, 'failed') + count(counts, 'cancelled');
  let summary: string;
  if (total === 0) summary = 'no targets';
  else {
    const rest = segments.filter((s) => s.part !== 'succeeded').map((s) => `${s.count} ${s.part}`);
    summary = [`${count(counts, 'succeeded')} of ${total} succeeded`, ...rest].join(', ');
  }
  return { total, finished, segments, summary };
}

/** The phases an operation is still moving in: listed first. */
const ACTIVE = new Set(['Running', 'Paused', 'Pending', '']);

function timeOf(value: string | null | undefined): number {
  return parseTime(value)?.getTime() ?? 0;
}

/** Operations under way first, then the newest; ties by cluster, namespace, name so the order never jumps. */
export function sortOperations(rows: BroodOperationRow[]): BroodOperationRow[] {
  return [...rows].sort(
    (a, b) =>
      Number(ACTIVE.has(b.phase ?? '')) - Number(ACTIVE.has(a.phase ?? '')) ||
      timeOf(b.createdAt ?? b.startedAt) - timeOf(a.createdAt ?? a.startedAt) ||
      a.cluster.localeCompare(b.cluster) ||
      a.namespace.localeCompare(b.namespace) ||
      a.name.localeCompare(b.name),
  );
}

export interface OperationsFilter {
  cluster: string;
  phase: string;
}

export function parseOperationsFilter(search: string): OperationsFilter {
  const params = new URLSearchParams(search);
  return { cluster: params.get('cluster') ?? '', phase: params.get('phase') ?? '' };
}

export function filterOperations(rows: BroodOperationRow[], filter: OperationsFilter): BroodOperationRow[] {
  return rows.filter(
    (row) =>
      (!filter.cluster || row.cluster === filter.cluster) && (!filter.phase || (row.phase || 'Pending') === filter.phase),
  );
}

/** The step a target is on, as "2/3 safeRestart"; past the last step (finished): the last step it ran. */
export function currentStepLabel(target: BroodTargetStatus, stepTypes: string[]): string {
  if (stepTypes.length === 0) return '';
  const index = typeof target.step === 'number' && target.step >= 0 ? Math.min(target.step, stepTypes.length - 1) : 0;
  return `${index + 1}/${stepTypes.length} ${stepTypes[index]}`;
}

/**
 * Why a paused target waits and what to check, or null: a pause step's note (spec.steps[i].note), or the whole
 * operation suspended.
 */
export function pausedNote(target: BroodTargetStatus, operation: BroodOperationObject): string | null {
  if (target.phase !== 'Paused') return null;
  const steps = operation.spec?.steps ?? [];
  const step = typeof target.step === 'number' ? steps[target.step] : undefined;
  if (step?.type === 'pause') {
    return step.note ? `Waits for a person to resume: ${step.note}` : 'Waits for a person to resume (a pause step).';
  }
  if (operation.spec?.suspend) return 'The operation is suspended: no step starts until it is resumed.';
  return null;
}

/** The varroactl command that resumes, pauses or cancels the operation, to copy: the dashboard only reads. */
export function operationCommands(cluster: string, namespace: string, name: string, operation: BroodOperationObject): string[] {
  const phase = operation.status?.phase || 'Pending';
  const where = `${name} --cluster ${cluster} -n ${namespace}`;
  if (['Succeeded', 'Failed', 'Cancelled'].includes(phase) || operation.spec?.cancel) return [];
  const paused = phase === 'Paused' || operation.spec?.suspend === true;
  return [`varroactl broodop ${paused ? 'resume' : 'pause'} ${where}`, `varroactl broodop cancel ${where}`];
}

/** The step types of a run: the status's (what this run executes) or else the spec's. */
export function stepTypes(operation: BroodOperationObject): string[] {
  const fromStatus = operation.status?.steps ?? [];
  if (fromStatus.length > 0) return fromStatus;
  return (operation.spec?.steps ?? []).map((step) => step.type);
}

/** How long a step or target took, or has been going: milliseconds, or null without a start. */
export function elapsedMillis(item: { startedAt?: string | null; completedAt?: string | null }, now: number): number | null {
  const start = parseTime(item.startedAt);
  if (!start) return null;
  const end = parseTime(item.completedAt)?.getTime() ?? now;
  return Math.max(0, end - start.getTime());
}

/** The target's own message, unless a step result already says the same (a failed step's error is often both). */
export function targetMessage(target: BroodTargetStatus): string | null {
  if (!target.message) return null;
  return (target.steps ?? []).some((step) => step.message === target.message) ? null : target.message;
}

/** Targets filtered by phase (the detail page's ?phase=), in the order they run. */
export function filterTargets(targets: BroodTargetStatus[], phase: string): BroodTargetStatus[] {
  return phase ? targets.filter((target) => (target.phase || 'Pending') === phase) : targets;
}

/** How many targets are in each phase, for the detail page's phase chips (only phases with targets). */
export function targetPhaseCounts(targets: BroodTargetStatus[]): [string, number][] {
  const order = ['Running', 'Paused', 'Failed', 'Unknown', 'Pending', 'Succeeded', 'Cancelled'];
  const counts = new Map<string, number>();
  for (const target of targets) {
    const phase = target.phase || 'Pending';
    counts.set(phase, (counts.get(phase) ?? 0) + 1);
  }
  const rank = (phase: string) => (order.includes(phase) ? order.indexOf(phase) : order.length);
  return [...counts.entries()].sort((a, b) => rank(a[0]) - rank(b[0]) || a[0].localeCompare(b[0]));
}

export function stepResultClass(result: BroodStepResult): string {
  return `step-${(result.phase || 'pending').toLowerCase()}`;
}

/**
 * An instant in the schedule's own time zone ("Sat, 5 Dec 2026, 02:00 Europe/Berlin"), as the cron expression reads
 * it; a zone the browser does not know falls back to UTC, and says so.
 */
export function inTimeZone(value: string | null | undefined, timeZone: string | null | undefined): string {
  const date = parseTime(value);
  if (!date) return '';
  const zone = timeZone || 'UTC';
  const options: Intl.DateTimeFormatOptions = {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  };
  try {
    return `${new Intl.DateTimeFormat('en-GB', { ...options, timeZone: zone }).format(date)} ${zone}`;
  } catch {
    return `${new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' }).format(date)} UTC (unknown zone ${zone})`;
  }
}

/** Schedules by cluster, namespace, name. */
export function sortSchedules(rows: BroodScheduleRow[]): BroodScheduleRow[] {
  return [...rows].sort(
    (a, b) => a.cluster.localeCompare(b.cluster) || a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name),
  );
}

export interface ControllerJobSchedules {
  cluster: string;
  namespace: string;
  controller: string;
  jobs: JobScheduleRow[];
}

/** Job schedules grouped per controller (cluster, namespace, name order), jobs by name inside each. */
export function groupJobSchedules(rows: JobScheduleRow[]): ControllerJobSchedules[] {
  const groups = new Map<string, ControllerJobSchedules>();
  for (const row of rows) {
    const key = `${row.cluster}\u0000${row.namespace}\u0000${row.controller}`;
    let group = groups.get(key);
    if (!group) {
      group = { cluster: row.cluster, namespace: row.namespace, controller: row.controller, jobs: [] };
      groups.set(key, group);
    }
    group.jobs.push(row);
  }
  const sorted = [...groups.values()].sort(
    (a, b) =>
      a.cluster.localeCompare(b.cluster) ||
      a.namespace.localeCompare(b.namespace) ||
      a.controller.localeCompare(b.controller),
  );
  for (const group of sorted) group.jobs.sort((a, b) => a.job.localeCompare(b.job));
  return sorted;
}
