// The console's routes live in the URL's hash: `#/<area>/<segment>...?<filters>`.
// Segments are URI-encoded, so any name the contract allows (200 characters,
// unicode, slashes) survives the trip; filters are URLSearchParams.
import { useMemo, useSyncExternalStore } from 'react';

export interface Route {
  /** Decoded path segments: `#/jobs/a%2Fb` → ['jobs', 'a/b']. */
  segments: string[];
  params: URLSearchParams;
}

export function parseHash(hash = window.location.hash): Route {
  const text = hash.replace(/^#\/?/, '');
  const q = text.indexOf('?');
  const path = q < 0 ? text : text.slice(0, q);
  const query = q < 0 ? '' : text.slice(q + 1);
  const segments = path
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        // A malformed escape is shown as typed rather than breaking the page.
        return s;
      }
    });
  return { segments, params: new URLSearchParams(query) };
}

export function hashFor(segments: string[], params?: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) if (value !== undefined && value !== '') search.set(key, value);
  const query = search.toString();
  return `#/${segments.map(encodeURIComponent).join('/')}${query ? `?${query}` : ''}`;
}

const onHashChange = (notify: () => void) => {
  window.addEventListener('hashchange', notify);
  return () => window.removeEventListener('hashchange', notify);
};
const currentHash = () => window.location.hash;

/**
 * The current route, updated on every hash change. The hash is read again as the page subscribes,
 * so a change between the first render and the subscription (a busy machine) is not missed.
 */
export function useRoute(): Route {
  const hash = useSyncExternalStore(onHashChange, currentHash);
  return useMemo(() => parseHash(hash), [hash]);
}

/** Changes the filters of the current page without a new history entry per keystroke. */
export function replaceParams(params: Record<string, string | undefined>) {
  const { segments } = parseHash();
  const next = hashFor(segments, params);
  if (next !== window.location.hash) {
    window.history.replaceState(window.history.state, '', next);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  }
}
