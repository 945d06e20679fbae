import { describe, expect, it } from 'vitest';
import { formatMillis, orderedResults, queueLines, stackedBars, type StatisticsHour } from '../src/buildStats';

function hour(start: string, completed: Record<string, number>, p50: number | null = null): StatisticsHour {
  return { start, completed, started: p50 === null ? 0 : 1, queueP50Millis: p50, queueP95Millis: p50 };
}

describe('builds per hour', () => {
  const hours = [
    hour('2026-12-04T10:00:00Z', { FAILURE: 1, SUCCESS: 3 }),
    hour('2026-12-04T11:00:00Z', {}),
    hour('2026-12-04T12:00:00Z', { SUCCESS: 2, UNKNOWN: 1, ABORTED: 1 }),
  ];

  it('orders results as Jenkins ranks them, others after by name', () => {
    expect(orderedResults(hours)).toEqual(['SUCCESS', 'FAILURE', 'ABORTED', 'UNKNOWN']);
  });

  it('stacks each result on the ones before it and totals the window', () => {
    const bars = stackedBars(hours);
    expect(bars.x).toEqual([Date.parse('2026-12-04T10:00:00Z') / 1000, 1796382000, 1796385600]);
    expect(bars.counts).toEqual([
      [3, 0, 2],
      [1, 0, 0],
      [0, 0, 1],
      [0, 0, 1],
    ]);
    expect(bars.tops).toEqual([
      [3, 0, 2],
      [4, 0, 2],
      [4, 0, 3],
      [4, 0, 4],
    ]);
    expect(bars.totals).toEqual({ SUCCESS: 5, FAILURE: 1, ABORTED: 1, UNKNOWN: 1 });
  });
});

describe('queue to start', () => {
  it('leaves a gap (null) for an hour without starts and draws seconds', () => {
    const lines = queueLines([hour('2026-12-04T10:00:00Z', {}, 1500), hour('2026-12-04T11:00:00Z', {})]);
    expect(lines.p50).toEqual([1.5, null]);
  });

  it('formats durations for people', () => {
    expect(formatMillis(null)).toBe('—');
    expect(formatMillis(850)).toBe('850 ms');
    expect(formatMillis(3200)).toBe('3.2 s');
    expect(formatMillis(42_000)).toBe('42 s');
    expect(formatMillis(95_000)).toBe('1 min 35 s');
    expect(formatMillis(7_200_000)).toBe('2 h');
  });
});
