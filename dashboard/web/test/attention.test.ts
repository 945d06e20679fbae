import { describe, expect, it } from 'vitest';
import { fixMessage, needsAttention } from '../src/attention';
import type { ControllerDetail } from '../src/types';
import { row } from './fixtures';

describe('needs attention', () => {
  it('orders worst first by seed 001 precedence and leaves out rows without a signal', () => {
    const rows = [
      row('m', { attention: 'Mite unreachable' }),
      row('ok'),
      row('a', { attention: 'Apply failed' }),
      row('f', { attention: 'Failed' }),
      row('p', { attention: 'Plugin roll failed' }),
      row('b', { attention: 'Blocked' }),
      row('k', { attention: 'Boot failed' }),
    ];
    expect(needsAttention(rows).map((r) => r.attention)).toEqual([
      'Failed',
      'Blocked',
      'Boot failed',
      'Plugin roll failed',
      'Apply failed',
      'Mite unreachable',
    ]);
  });

  it('breaks ties by cluster, namespace and name', () => {
    const rows = [
      row('z', { attention: 'Blocked' }),
      row('a', { attention: 'Blocked', cluster: 'member' }),
      row('b', { attention: 'Blocked' }),
    ];
    expect(needsAttention(rows).map((r) => `${r.cluster}/${r.name}`)).toEqual(['core/b', 'core/z', 'member/a']);
  });

  it('takes the fix from the matching condition, and from the last apply for Apply failed', () => {
    const blocked = row('b', { attention: 'Blocked' });
    const detail = {
      ...blocked,
      conditions: [
        { type: 'Ready', status: 'False', reason: 'Blocked', message: 'Blocked: see the conditions', lastTransitionTime: '' },
        { type: 'ReconcileBlocked', status: 'True', reason: 'Blocked', message: 'remove the pin on job-dsl', lastTransitionTime: '' },
      ],
    } as unknown as ControllerDetail;
    expect(fixMessage(blocked, detail)).toBe('remove the pin on job-dsl');
    const refused = row('a', {
      attention: 'Apply failed',
      lastApply: { succeeded: false, message: 'Jenkins: unknown key foo', appliedAt: '2026-12-01T10:00:00Z' },
    });
    expect(fixMessage(refused, undefined)).toBe('Jenkins: unknown key foo');
  });
});
