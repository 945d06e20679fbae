import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { ActivityEvent } from './types';

// Live updates without reload: re-fetch every 5 s while the page is visible, at once when activity arrives.

export const REFRESH_INTERVAL_MS = 5000;

export interface Polled<T> {
  data: T | undefined;
  error: Error | undefined;
  /** When the last good answer arrived. */
  updatedAt: number | undefined;
  /** When fetches started failing after a good answer (the data on screen is from before). */
  staleSince: number | undefined;
  refresh: () => void;
}

/** Loads now, again every interval while the document is visible, and on refresh(); the last data stays shown. */
export function usePolling<T>(load: () => Promise<T>, key: string, intervalMs = REFRESH_INTERVAL_MS): Polled<T> {
  const [state, setState] = useState<Omit<Polled<T>, 'refresh'>>({
    data: undefined,
    error: undefined,
    updatedAt: undefined,
    staleSince: undefined,
  });
  const loadRef = useRef(load);
  loadRef.current = load;
  const inFlight = useRef(false);
  const again = useRef(false);
  const generation = useRef(0);

  const run = useCallback(() => {
    if (inFlight.current) {
      again.current = true;
      return;
    }
    inFlight.current = true;
    const mine = generation.current;
    loadRef
      .current()
      .then(
        (data) => {
          if (mine !== generation.current) return;
          setState({ data, error: undefined, updatedAt: Date.now(), staleSince: undefined });
        },
        (error: Error) => {
          if (mine !== generation.current) return;
          setState((s) => ({ ...s, error, staleSince: s.staleSince ?? (s.data !== undefined ? Date.now() : undefined) }));
        },
      )
      .finally(() => {
        if (mine !== generation.current) return;
        inFlight.current = false;
        if (again.current) {
          again.current = false;
          run();
        }
      });
  }, []);

  useEffect(() => {
    generation.current += 1;
    inFlight.current = false;
    again.current = false;
    setState({ data: undefined, error: undefined, updatedAt: undefined, staleSince: undefined });
    run();
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') run();
    }, intervalMs);
    const onVisible = () => {
      if (document.visibilityState === 'visible') run();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      generation.current += 1;
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [key, intervalMs, run]);

  return { ...state, refresh: run };
}

type ActivityListener = (event: ActivityEvent) => void;

const activityListeners = new Set<ActivityListener>();
let sharedStream: EventSource | null = null;

function openSharedStream() {
  if (sharedStream || typeof EventSource === 'undefined') return;
  sharedStream = new EventSource('/activity/stream');
  sharedStream.addEventListener('activity', (message) => {
    let event: ActivityEvent;
    try {
      event = JSON.parse((message as MessageEvent<string>).data);
    } catch {
      return;
    }
    for (const listener of activityListeners) listener(event);
  });
}

/** Calls back on every live activity event, over one EventSource shared by the whole page. */
export function subscribeActivity(listener: ActivityListener): () => void {
  activityListeners.add(listener);
  openSharedStream();
  return () => {
    activityListeners.delete(listener);
    if (activityListeners.size === 0 && sharedStream) {
      sharedStream.close();
      sharedStream = null;
    }
  };
}

/** Refresh when an activity event passes the filter, at most once a second however busy the stream is. */
export function useActivityRefresh(refresh: () => void, matches: (event: ActivityEvent) => boolean, key: string) {
  const matchRef = useRef(matches);
  matchRef.current = matches;
  useEffect(() => {
    let timer: number | undefined;
    let last = 0;
    const unsubscribe = subscribeActivity((event) => {
      if (!matchRef.current(event) || timer !== undefined) return;
      const wait = Math.max(0, last + 1000 - Date.now());
      timer = window.setTimeout(() => {
        timer = undefined;
        last = Date.now();
        refresh();
      }, wait);
    });
    return () => {
      unsubscribe();
      if (timer !== undefined) window.clearTimeout(timer);
    };
  }, [key, refresh]);
}

/** The clock for relative times, ticking every 10 s so "5 s ago" keeps moving. */
export function useNow(intervalMs = 10000): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}
