import type { ComponentChildren } from 'preact';
import { ApiError } from '../api';
import { attentionSlug } from '../attention';
import { parseTime, relativeTime } from '../time';

/** A relative time with the exact RFC 3339 time on hover and in datetime. */
export function RelTime({ value, now, empty = '—' }: { value: string | null | undefined; now: number; empty?: string }) {
  const date = parseTime(value);
  if (!date) return <span class="muted">{empty}</span>;
  return (
    <time dateTime={value!} title={value!}>
      {relativeTime(value, now)}
    </time>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p role="status" class="loading">
      <span class="spinner" aria-hidden="true" /> Loading {what}…
    </p>
  );
}

/** Rows under column headings; on a narrow screen the table scrolls sideways inside its own box. */
export function DataTable({
  label,
  columns,
  class: extra,
  children,
}: {
  label: string;
  columns: string[];
  class?: string;
  children: ComponentChildren;
}) {
  return (
    <div class="table-scroll">
      <table aria-label={label} class={extra ? `data ${extra}` : 'data'}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

/** A failed read: what failed and the BFF's message (a 403's names the missing permission and the fix). */
export function ErrorNote({ what, error }: { what: string; error: Error }) {
  const status = error instanceof ApiError && error.status ? ` (${error.status})` : '';
  return (
    <div role="alert" class="error">
      <strong>
        Could not load {what}
        {status}.
      </strong>{' '}
      {error.message}
    </div>
  );
}

/** "Live" while answers arrive; "Stale since …" with the failure once they stop. */
export function LiveIndicator({
  updatedAt,
  staleSince,
  error,
}: {
  updatedAt: number | undefined;
  staleSince: number | undefined;
  error: Error | undefined;
}) {
  if (staleSince !== undefined) {
    const since = new Date(staleSince).toISOString();
    return (
      <span class="live stale" aria-live="polite" title={error?.message}>
        <span class="dot" aria-hidden="true" />
        Stale since <time dateTime={since}>{new Date(staleSince).toLocaleTimeString()}</time>
        {error ? `: ${error.message}` : ''}
      </span>
    );
  }
  if (updatedAt === undefined) return null;
  return (
    <span class="live" aria-live="polite" title={'updated ' + new Date(updatedAt).toISOString()}>
      <span class="dot" aria-hidden="true" />
      Live
    </span>
  );
}

export function PhaseBadge({ phase }: { phase: string }) {
  if (!phase) return <span class="muted">—</span>;
  return <span class={`badge phase phase-${phase.toLowerCase()}`}>{phase}</span>;
}

export function AttentionBadge({ attention }: { attention: string }) {
  if (!attention) return <span class="muted">—</span>;
  return <span class={`badge attention attention-${attentionSlug(attention)}`}>{attention}</span>;
}

export function PageHeading({ title, children }: { title: ComponentChildren; children?: ComponentChildren }) {
  return (
    <div class="page-heading">
      <h1>{title}</h1>
      {children ? <div class="page-heading-side">{children}</div> : null}
    </div>
  );
}
