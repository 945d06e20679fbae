import { useEffect, useState } from 'preact/hooks';

// A tiny history router: every page, filter and tab is a /ui/... URL that can be shared.

export const BASE = '/ui';

const listeners = new Set<() => void>();

function notify() {
  for (const listener of listeners) listener();
}

if (typeof window !== 'undefined') {
  window.addEventListener('popstate', notify);
}

/** Goes to a /ui/... URL; replace for changes that should not fill the back button (typing in search). */
export function navigate(to: string, replace = false) {
  const current = window.location.pathname + window.location.search;
  if (to === current) return;
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  notify();
}

export interface Location {
  pathname: string;
  search: string;
}

export function useLocation(): Location {
  const [location, setLocation] = useState<Location>({
    pathname: window.location.pathname,
    search: window.location.search,
  });
  useEffect(() => {
    const update = () => setLocation({ pathname: window.location.pathname, search: window.location.search });
    listeners.add(update);
    update();
    return () => {
      listeners.delete(update);
    };
  }, []);
  return location;
}

/** Plain left clicks on same-origin /ui/ links stay in the page; other clicks behave as the browser does. */
export function interceptLinks(event: MouseEvent) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
    return;
  }
  const anchor = (event.target as Element | null)?.closest?.('a');
  if (!anchor || anchor.target || anchor.hasAttribute('download')) return;
  const url = new URL(anchor.href, window.location.href);
  if (url.origin !== window.location.origin || !(url.pathname === BASE || url.pathname.startsWith(BASE + '/'))) return;
  // In-page anchors (the skip link) are the browser's.
  if (url.hash && url.pathname === window.location.pathname && url.search === window.location.search) return;
  event.preventDefault();
  navigate(url.pathname + url.search + url.hash);
}

/** /ui/controllers/a/b -> ["controllers", "a", "b"], decoded. */
export function routeSegments(pathname: string): string[] {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  return rest
    .split('/')
    .filter(Boolean)
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    });
}

export function controllerHref(cluster: string, namespace: string, name: string, tab?: string): string {
  const path = [cluster, namespace, name].map(encodeURIComponent).join('/');
  return `${BASE}/controllers/${path}${tab && tab !== 'overview' ? '?tab=' + tab : ''}`;
}

export function runHref(runId: string): string {
  return `${BASE}/runs/${encodeURIComponent(runId)}`;
}

/** Set when "/" was pressed on a page without search: the Controllers page focuses its box when it mounts. */
export const pendingSearchFocus = { value: false };

export function broodOperationHref(cluster: string, namespace: string, name: string, phase?: string): string {
  const path = [cluster, namespace, name].map(encodeURIComponent).join('/');
  return `${BASE}/broodoperations/${path}${phase ? '?phase=' + encodeURIComponent(phase) : ''}`;
}
