// Activating another profile while the console runs: what depends on the profile (store,
// task worker, adapters) closes (running tasks finish or are handed back in closeRuntime),
// the new profile's runtime opens, and the choice is remembered in console.json.
import { writeActiveProfileId, type ProfileProperties } from '../profiles/directory';
import { loadValid, withProfilesLock } from '../profiles/repository';
import { closeRuntime, openRuntime } from './runtime';
import type { HostState } from './state';

export async function activateProfile(state: HostState, id: string): Promise<ProfileProperties> {
  return withProfilesLock(state.dataDir, () => activateProfileLocked(state, id));
}

/** For callers that already hold the profiles lock. */
export async function activateProfileLocked(state: HostState, id: string): Promise<ProfileProperties> {
  const profile = await loadValid(state.dataDir, id);
  await reopenRuntime(state, profile);
  await writeActiveProfileId(state.dataDir, id);
  return profile;
}

/**
 * Closes the running profile's runtime and opens `profile`'s. When the new one cannot open,
 * the previous profile is opened again so the console keeps working, and the error says so.
 */
export async function reopenRuntime(state: HostState, profile: ProfileProperties): Promise<void> {
  const previous = state.runtime;
  await closeRuntime(previous);
  try {
    state.runtime = await openRuntime(state.dataDir, profile);
  } catch (error) {
    const cause = (error as Error).message;
    try {
      state.runtime = await openRuntime(state.dataDir, previous.profile);
    } catch (again) {
      throw new Error(
        `profile "${profile.id}" cannot be opened (${cause}), and reopening profile "${previous.profile.id}" failed too (${(again as Error).message})`,
      );
    }
    throw new Error(`profile "${profile.id}" cannot be opened (${cause}); profile "${previous.profile.id}" stays active`);
  }
}
