// Relative times ("3 min ago") with the exact RFC 3339 time kept for the tooltip.

const UNITS: [string, number][] = [
  ['d', 86400],
  ['h', 3600],
  ['min', 60],
  ['s', 1],
];

/** A timestamp the API sent, or null when it is empty or not a time. */
export function parseTime(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "just now", "42 s ago", "5 min ago", "3 h ago", "2 d ago", or "in 5 min" for a time ahead of the clock. */
export function relativeTime(value: string | null | undefined, now: number): string {
  const date = parseTime(value);
  if (!date) return '';
  return ago(Math.round((now - date.getTime()) / 1000));
}

/** A span of seconds before now (negative: after now) in words. */
export function ago(seconds: number): string {
  const ahead = seconds < 0;
  const span = Math.abs(seconds);
  if (span < 5) return 'just now';
  for (const [unit, size] of UNITS) {
    if (span >= size) {
      const amount = Math.floor(span / size);
      return ahead ? `in ${amount} ${unit}` : `${amount} ${unit} ago`;
    }
  }
  return 'just now';
}

/** "1 h 4 min", "3 min 20 s", "812 ms": a duration for runs and stages. */
export function duration(millis: number | null | undefined): string {
  if (millis === null || millis === undefined || millis < 0) return '';
  if (millis < 1000) return `${millis} ms`;
  let seconds = Math.round(millis / 1000);
  const parts: string[] = [];
  for (const [unit, size] of UNITS) {
    if (seconds >= size) {
      parts.push(`${Math.floor(seconds / size)} ${unit}`);
      seconds %= size;
    }
    if (parts.length === 2) break;
  }
  return parts.join(' ');
}
