// The host's answer to profile changes: activating a profile reopens the runtime on it; saving
// the active profile reopens it when its database or adapters folder changed (other fields are
// read when used, so the new profile simply replaces the old one).
import type { ProfileEvent } from '../profiles/events';
import type { ProfileProperties } from '../profiles/directory';
import { closeRuntime, openRuntime } from './runtime';
import type { HostState } from './state';

export function followProfileChanges(state: HostState): () => void {
  return state.profileEvents.on((event: ProfileEvent) => {
    if (event.type === 'activating') return reopenRuntime(state, event.profile);
    if (event.profile.id !== state.runtime.profile.id) return;
    if (needsReopen(state.runtime.profile, event.profile)) return reopenRuntime(state, event.profile);
    state.runtime.profile = event.profile;
    state.log.configure(event.profile.loggerProps);
  });
}

const sdkDirOf = (profile: ProfileProperties) => (profile.pathProps as { sdk_dir?: string } | undefined)?.sdk_dir;

function needsReopen(current: ProfileProperties, saved: ProfileProperties): boolean {
  const sameDatabase = JSON.stringify(current.mongoProps) === JSON.stringify(saved.mongoProps);
  return !sameDatabase || sdkDirOf(current) !== sdkDirOf(saved);
}

/**
 * Closes the running profile's runtime and opens `profile`'s. When the new one cannot open,
 * the previous profile is opened again so the console keeps working, and the error says so.
 */
export async function reopenRuntime(state: HostState, profile: ProfileProperties): Promise<void> {
  const previous = state.runtime;
  state.logger.info({ from: previous.profile.id, to: profile.id }, `reopening the console on profile "${profile.id}"`);
  await closeRuntime(previous);
  try {
    state.runtime = await openRuntime(state, profile);
    state.log.configure(profile.loggerProps);
  } catch (error) {
    const cause = (error as Error).message;
    try {
      state.runtime = await openRuntime(state, previous.profile);
    } catch (again) {
      throw new Error(
        `profile "${profile.id}" cannot be opened (${cause}), and reopening profile "${previous.profile.id}" failed too (${(again as Error).message})`,
      );
    }
    throw new Error(`profile "${profile.id}" cannot be opened (${cause}); profile "${previous.profile.id}" stays active`);
  }
}
