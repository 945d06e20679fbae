import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { formatMillis, queueLines, stackedBars, type RunStatistics } from '../buildStats';
import { Empty } from './common';

const HEIGHT = 190;

/** Each result's colour from the theme's variables, so light and dark both read. */
const RESULT_COLOUR: Record<string, string> = {
  SUCCESS: '--ok',
  UNSTABLE: '--warn',
  FAILURE: '--bad',
  ABORTED: '--muted',
  NOT_BUILT: '--border',
};

function cssColour(variable: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(variable).trim() || '#888';
}

function axes(values: (v: number) => string): uPlot.Axis[] {
  const text = cssColour('--muted');
  const grid = { stroke: cssColour('--border'), width: 1 };
  return [
    { stroke: text, grid, ticks: grid },
    { stroke: text, grid, ticks: grid, size: 64, values: (_u, ticks) => ticks.map(values) },
  ];
}

/** A uPlot chart as wide as its box, redrawn when the box or the data changes. */
function Chart({ label, build }: { label: string; build: (width: number) => [uPlot.Options, uPlot.AlignedData] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const [options, data] = build(element.clientWidth);
    const chart = new uPlot(options, data, element);
    const observer = new ResizeObserver(() => {
      if (element.clientWidth && element.clientWidth !== chart.width) {
        chart.setSize({ width: element.clientWidth, height: HEIGHT });
      }
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [build]);
  return <div ref={box} class="chart" role="img" aria-label={label} />;
}

export function BuildsPerHour({ stats }: { stats: RunStatistics }) {
  const bars = useMemo(() => stackedBars(stats.hours ?? []), [stats]);
  const half = (stats.bucketSeconds ?? 3600) / 2;
  const build = useMemo(
    () =>
      (width: number): [uPlot.Options, uPlot.AlignedData] => {
        // Stacked by drawing each result's running total, tallest first, so the lower pieces paint over it.
        const order = bars.results.map((_, i) => i).reverse();
        const options: uPlot.Options = {
          width,
          height: HEIGHT,
          legend: { show: false },
          cursor: { drag: { x: false, y: false }, points: { show: false } },
          scales: {
            x: { time: true, range: [Date.parse(stats.from!) / 1000, Date.parse(stats.until!) / 1000] },
            y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
          },
          axes: axes((v) => (Number.isInteger(v) ? String(v) : '')),
          series: [
            {},
            ...order.map((i) => ({
              label: bars.results[i],
              fill: cssColour(RESULT_COLOUR[bars.results[i]] ?? '--accent'),
              stroke: cssColour(RESULT_COLOUR[bars.results[i]] ?? '--accent'),
              width: 0,
              paths: uPlot.paths.bars!({ size: [0.85, 40] }),
              points: { show: false },
            })),
          ],
        };
        return [options, [bars.x.map((x) => x + half), ...order.map((i) => bars.tops[i])]];
      },
    [bars, stats, half],
  );
  const total = Object.values(bars.totals).reduce((a, b) => a + b, 0);
  const summary = bars.results.map((r) => `${bars.totals[r]} ${r}`).join(', ');
  if (total === 0) return <Empty>No build completed in the last 24 hours.</Empty>;
  return (
    <figure class="chart-figure" data-chart="builds-per-hour">
      <Chart label={`Builds completed per hour over the last 24 hours: ${summary}`} build={build} />
      <figcaption>
        <ul class="chart-legend" aria-label="Builds by result, last 24 hours">
          {bars.results.map((result) => (
            <li key={result} data-result={result}>
              <span
                class="swatch"
                aria-hidden="true"
                style={{ background: `var(${RESULT_COLOUR[result] ?? '--accent'})` }}
              />
              {result} <strong>{bars.totals[result]}</strong>
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}

export function QueueToStart({ stats }: { stats: RunStatistics }) {
  const lines = useMemo(() => queueLines(stats.hours ?? []), [stats]);
  const build = useMemo(
    () =>
      (width: number): [uPlot.Options, uPlot.AlignedData] => {
        const options: uPlot.Options = {
          width,
          height: HEIGHT,
          legend: { show: false },
          cursor: { drag: { x: false, y: false } },
          scales: {
            x: { time: true, range: [Date.parse(stats.from!) / 1000, Date.parse(stats.until!) / 1000] },
            y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] },
          },
          axes: axes((v) => formatMillis(v * 1000)),
          series: [
            {},
            { label: 'p50', stroke: cssColour('--accent'), width: 2, points: { show: true, size: 5 } },
            { label: 'p95', stroke: cssColour('--warn'), width: 2, dash: [6, 4], points: { show: true, size: 5 } },
          ],
        };
        const x = lines.x.map((v) => v + (stats.bucketSeconds ?? 3600) / 2);
        return [options, [x, lines.p50, lines.p95] as uPlot.AlignedData];
      },
    [lines, stats],
  );
  const queue = stats.queue;
  if (!queue || queue.started === 0) return <Empty>No build started in the last 24 hours.</Empty>;
  return (
    <figure class="chart-figure" data-chart="queue-to-start">
      <p class="figure-pair">
        <span>
          p50 <strong data-figure="p50">{formatMillis(queue.p50Millis)}</strong>
        </span>
        <span>
          p95 <strong data-figure="p95">{formatMillis(queue.p95Millis)}</strong>
        </span>
        <span class="muted">
          over {queue.started} build{queue.started === 1 ? '' : 's'} started in 24 h
        </span>
      </p>
      <Chart
        label={`Queue-to-start time per hour over the last 24 hours: p50 ${formatMillis(queue.p50Millis)}, p95 ${formatMillis(queue.p95Millis)}`}
        build={build}
      />
      <figcaption>
        <ul class="chart-legend" aria-label="Queue-to-start lines">
          <li>
            <span class="swatch" aria-hidden="true" style={{ background: 'var(--accent)' }} />
            p50 per hour
          </li>
          <li>
            <span class="swatch dashed" aria-hidden="true" style={{ background: 'var(--warn)' }} />
            p95 per hour
          </li>
        </ul>
      </figcaption>
    </figure>
  );
}
