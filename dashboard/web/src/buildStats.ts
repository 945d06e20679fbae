// GET /statistics/runs (docs/dashboard-api.md) turned into what the Overview's two charts draw.

export interface StatisticsHour {
  start: string;
  completed: Record<string, number>;
  started: number;
  queueP50Millis: number | null;
  queueP95Millis: number | null;
}

export interface RunStatistics {
  recordStore: boolean;
  from?: string;
  until?: string;
  bucketSeconds?: number;
  hours?: StatisticsHour[];
  queue?: { started: number; p50Millis: number | null; p95Millis: number | null };
}

/** Jenkins' results in the order they stack, bottom up; others (and UNKNOWN) after them by name. */
export const RESULT_ORDER = ['SUCCESS', 'UNSTABLE', 'FAILURE', 'ABORTED', 'NOT_BUILT'] as const;

export function orderedResults(hours: StatisticsHour[]): string[] {
  const seen = new Set<string>();
  for (const hour of hours) for (const [result, count] of Object.entries(hour.completed)) if (count > 0) seen.add(result);
  const known = RESULT_ORDER.filter((r) => seen.has(r));
  const others = [...seen].filter((r) => !(RESULT_ORDER as readonly string[]).includes(r)).sort();
  return [...known, ...others];
}

export interface StackedBars {
  /** Hour starts, epoch seconds. */
  x: number[];
  results: string[];
  /** Per result (in results' order), each hour's count. */
  counts: number[][];
  /** Per result, the running sum up to and including it: the top of its piece of each bar. */
  tops: number[][];
  totals: Record<string, number>;
}

export function stackedBars(hours: StatisticsHour[]): StackedBars {
  const results = orderedResults(hours);
  const x = hours.map((h) => Date.parse(h.start) / 1000);
  const counts = results.map((r) => hours.map((h) => h.completed[r] ?? 0));
  const tops: number[][] = [];
  counts.forEach((series, i) => tops.push(series.map((count, h) => count + (i > 0 ? tops[i - 1][h] : 0))));
  const totals: Record<string, number> = {};
  results.forEach((r, i) => (totals[r] = counts[i].reduce((a, b) => a + b, 0)));
  return { x, results, counts, tops, totals };
}

export interface QueueLines {
  x: number[];
  /** Seconds; null where no build started that hour (a gap, not a zero). */
  p50: (number | null)[];
  p95: (number | null)[];
}

export function queueLines(hours: StatisticsHour[]): QueueLines {
  const seconds = (millis: number | null) => (millis === null ? null : millis / 1000);
  return {
    x: hours.map((h) => Date.parse(h.start) / 1000),
    p50: hours.map((h) => seconds(h.queueP50Millis)),
    p95: hours.map((h) => seconds(h.queueP95Millis)),
  };
}

/** 850 -> "850 ms", 3200 -> "3.2 s", 95000 -> "1 min 35 s", 7_200_000 -> "2 h". */
export function formatMillis(millis: number | null | undefined): string {
  if (millis === null || millis === undefined) return '—';
  if (millis < 1000) return `${Math.round(millis)} ms`;
  const seconds = millis / 1000;
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) {
    const rest = Math.round(seconds - minutes * 60);
    return rest ? `${minutes} min ${rest} s` : `${minutes} min`;
  }
  const hours = Math.floor(minutes / 60);
  const restMinutes = minutes - hours * 60;
  return restMinutes ? `${hours} h ${restMinutes} min` : `${hours} h`;
}
