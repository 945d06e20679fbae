import { describe, expect, it } from 'vitest';
import { ago, duration, relativeTime } from '../src/time';

const now = Date.parse('2026-12-01T10:00:00Z');

describe('relative time', () => {
  it('says how long ago in the largest whole unit', () => {
    expect(relativeTime('2026-12-01T09:59:58Z', now)).toBe('just now');
    expect(relativeTime('2026-12-01T09:59:18Z', now)).toBe('42 s ago');
    expect(relativeTime('2026-12-01T09:55:00Z', now)).toBe('5 min ago');
    expect(relativeTime('2026-12-01T06:30:00Z', now)).toBe('3 h ago');
    expect(relativeTime('2026-11-28T10:00:00Z', now)).toBe('3 d ago');
  });

  it('says "in" for a time ahead of the clock, and nothing for an empty or unreadable time', () => {
    expect(relativeTime('2026-12-01T10:05:00Z', now)).toBe('in 5 min');
    expect(relativeTime('', now)).toBe('');
    expect(relativeTime('not a time', now)).toBe('');
  });

  it('formats heartbeat ages and durations', () => {
    expect(ago(4)).toBe('just now');
    expect(ago(25)).toBe('25 s ago');
    expect(duration(812)).toBe('812 ms');
    expect(duration(81234)).toBe('1 min 21 s');
    expect(duration(3_840_000)).toBe('1 h 4 min');
  });
});
