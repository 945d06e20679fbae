import { RelTime } from './common';
import { DigestText } from './Digest';
import { controllerHref } from '../router';
import type { ActivityEvent } from '../types';

export function Timeline({ events, label, now }: { events: ActivityEvent[]; label: string; now: number }) {
  return (
    <ol aria-label={label} class="timeline">
      {events.map((event) => (
        <li data-activity-kind={event.kind} key={event.id || `${event.occurredAt}${event.kind}${event.summary}`}>
          <RelTime value={event.occurredAt} now={now} />
          <span class="kind">{event.kind}</span>
          <span class="where">
            {event.namespace && event.controller ? (
              <a href={controllerHref(event.cluster, event.namespace, event.controller)}>
                {event.cluster}/{event.namespace}/{event.controller}
              </a>
            ) : (
              <span>{event.cluster} (installation)</span>
            )}
          </span>
          <span class="summary">
            <DigestText text={event.summary} />
          </span>
          {event.actor ? <span class="actor muted">by {event.actor}</span> : null}
        </li>
      ))}
    </ol>
  );
}
