// The Profiles page's place in the address: `#/profiles`, `#/profiles/new`, `#/profiles/<id>/<tab>`.
import { useEffect, useState } from 'react';

export interface ProfilesRoute {
  /** A profile id, `new` for the create form, or undefined for the list alone. */
  id?: string;
  tab: string;
}

export function parseProfilesHash(hash: string): ProfilesRoute {
  const [, id, tab] = hash.replace(/^#\/?/, '').split('/');
  return { id: id ? decodeURIComponent(id) : undefined, tab: tab ? decodeURIComponent(tab) : 'properties' };
}

export const profileHref = (id: string, tab = 'properties') => `#/profiles/${encodeURIComponent(id)}/${encodeURIComponent(tab)}`;

export function go(href: string) {
  window.location.hash = href.slice(1);
}

export function useProfilesRoute(): ProfilesRoute {
  const [route, setRoute] = useState(() => parseProfilesHash(window.location.hash));
  useEffect(() => {
    const onHash = () => setRoute(parseProfilesHash(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  return route;
}
