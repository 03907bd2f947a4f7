// The Profiles page's server state: queries and mutations over the profile operations.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProfileProperties } from '../../core/contract/profiles';
import { ApiError, call } from '../api/client';
import { qk, refreshAfter, refreshEverything } from '../api/keys';

export function useProfiles() {
  return useQuery({ queryKey: qk.profiles(), queryFn: () => call('profiles.list') });
}

export function useProfile(id: string | undefined) {
  return useQuery({
    queryKey: qk.profile(id),
    queryFn: () => call('profiles.get', { params: { id: id! } }),
    enabled: Boolean(id),
    retry: (count, error) => !(error instanceof ApiError && error.statusCode === 404) && count < 1,
  });
}

/** After a change, everything that shows a profile is read again (and, after activation, everything). */
export function useProfileMutation<V, R>(run: (vars: V) => Promise<R>, options: { everything?: boolean } = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () =>
      // What shows the active profile's settings besides the Profiles page (status bar, attention, the worker's startup value) too: keys.ts.
      options.everything ? refreshEverything(client) : refreshAfter(client, 'profiles'),
  });
}

export type Properties = ProfileProperties & Record<string, unknown>;

/** Server issues (`body.mongoProps.url`) as form paths (`mongoProps.url`). */
export function serverFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  return Object.fromEntries(Object.entries(error.fieldErrors).map(([path, message]) => [path.replace(/^body\./, ''), message]));
}

/** Saves the profile's file as the browser's download. */
export async function downloadExport(id: string) {
  const content = await call('profiles.export', { params: { id } });
  const blob = new Blob([`${JSON.stringify(content, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `${id}.properties.json`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export async function readJsonFile(file: File): Promise<unknown> {
  const text = await file.text();
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`${file.name} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
}
