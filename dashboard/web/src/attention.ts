import type { Condition, ControllerDetail, ControllerRow } from './types';

/** Seed 001's needs-attention signals, worst first. */
export const ATTENTION_PRECEDENCE = [
  'Failed',
  'Blocked',
  'Boot failed',
  'Plugin roll failed',
  'Apply failed',
  'Mite unreachable',
] as const;

export const PHASES = ['Pending', 'Provisioning', 'Running', 'Connected', 'Stopped', 'Hibernated', 'Failed'] as const;

/** The condition whose message names the fix for each signal (Apply failed carries it in lastApplyResult). */
const CONDITION_OF: Record<string, string> = {
  Failed: 'Failed',
  Blocked: 'ReconcileBlocked',
  'Boot failed': 'JenkinsBootFailed',
  'Plugin roll failed': 'PluginRollFailed',
  'Mite unreachable': 'MiteConnected',
};

/** 0 for the worst signal; unknown signals after the known ones, no signal last. */
export function attentionRank(attention: string): number {
  if (!attention) return ATTENTION_PRECEDENCE.length + 1;
  const rank = ATTENTION_PRECEDENCE.indexOf(attention as (typeof ATTENTION_PRECEDENCE)[number]);
  return rank < 0 ? ATTENTION_PRECEDENCE.length : rank;
}

function key(row: ControllerRow): string {
  return `${row.cluster}/${row.namespace}/${row.name}`;
}

/** The rows with a signal, worst first, then by cluster, namespace and name. */
export function needsAttention(rows: ControllerRow[]): ControllerRow[] {
  return rows
    .filter((row) => row.attention)
    .sort((a, b) => attentionRank(a.attention) - attentionRank(b.attention) || key(a).localeCompare(key(b)));
}

/** The message that names the fix: the matching condition's, or the last apply's for Apply failed. */
export function fixMessage(row: ControllerRow, detail: ControllerDetail | undefined): string {
  if (row.attention === 'Apply failed') {
    return detail?.status?.lastApplyResult?.message || row.lastApply?.message || '';
  }
  const type = CONDITION_OF[row.attention];
  const condition: Condition | undefined = detail?.conditions?.find((c) => c.type === type);
  if (condition?.message) return condition.message;
  if (row.attention === 'Failed' && detail?.resolutionProblem) return detail.resolutionProblem;
  return '';
}

export function attentionSlug(attention: string): string {
  return attention.toLowerCase().replace(/[^a-z]+/g, '-');
}
