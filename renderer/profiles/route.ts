// The Profiles page's place in the address: `#/profiles`, `#/profiles/new`, `#/profiles/<id>/<tab>`.
import { useRoute } from '../shell/route';

export interface ProfilesRoute {
  /** A profile id, `new` for the create form, or undefined for the list alone. */
  id?: string;
  tab: string;
}

export const profileHref = (id: string, tab = 'properties') => `#/profiles/${encodeURIComponent(id)}/${encodeURIComponent(tab)}`;

export function go(href: string) {
  window.location.hash = href.slice(1);
}

export function useProfilesRoute(): ProfilesRoute {
  const [, id, tab] = useRoute().segments;
  return { id, tab: tab ?? 'properties' };
}
