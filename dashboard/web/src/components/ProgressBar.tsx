import { progress } from '../brood';
import type { BroodCounts } from '../types';

/** A brood operation's targets as one bar: a coloured segment per phase, the counts in words beside it. */
export function ProgressBar({ counts, label }: { counts: BroodCounts | null | undefined; label: string }) {
  const bar = progress(counts);
  return (
    <div class="progress">
      <div
        class="progress-bar"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={bar.total}
        aria-valuenow={bar.finished}
        aria-valuetext={bar.summary}
        title={bar.summary}
      >
        {bar.segments
          .filter((segment) => segment.part !== 'pending')
          .map((segment) => (
            <span
              key={segment.part}
              class={`progress-part part-${segment.part}`}
              data-part={segment.part}
              data-count={segment.count}
              style={{ width: `${segment.percent}%` }}
            />
          ))}
      </div>
      <span class="progress-text">{bar.summary}</span>
    </div>
  );
}
