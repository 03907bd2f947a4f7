// The host's answer to profile changes: activating a profile reopens the runtime on it; saving
// the active profile compares its runtime config before and after (core/profiles/runtime-config.ts)
// and reconfigures what changed, live: the runtime (store, adapters folder, how adapter secrets are
// kept) is reopened, the logger configured again; other settings are read from the config when used.
import type { ProfileEvent } from '../profiles/events';
import { configChanges, runtimeConfig, type RuntimeConfig } from '../profiles/runtime-config';
import { closeRuntime, openRuntime } from './runtime';
import type { HostState } from './state';

export function followProfileChanges(state: HostState): () => void {
  return state.profileEvents.on((event: ProfileEvent) => {
    const next = runtimeConfig(event.profile, state.dataDir);
    if (event.type === 'activating') return reopenRuntime(state, next);
    const current = state.runtime.config;
    if (next.profileId !== current.profileId) return;
    const changes = configChanges(current, next);
    if (changes.runtime) return reopenRuntime(state, next);
    state.runtime.config = next;
    if (changes.logging) state.log.configure(next.logging);
  });
}

const named = (config: RuntimeConfig) => (config.profileId === undefined ? 'no profile' : `profile "${config.profileId}"`);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Closes the running runtime and opens one on `config`. When the new one cannot open, the
 * previous config is opened again so the console keeps working, and the error says so.
 */
export function reopenRuntime(state: HostState, config: RuntimeConfig): Promise<void> {
  // In the store's lifecycle: never at the same time as a restore, a backup or another switch.
  return state.lifecycle.queue(`reopening the console on ${named(config)}`, () => reopenNow(state, config));
}

async function reopenNow(state: HostState, config: RuntimeConfig): Promise<void> {
  const previous = state.runtime;
  state.logger.info({ from: previous.config.profileId, to: config.profileId }, `reopening the console on ${named(config)}`);
  await closeRuntime(previous);
  try {
    state.runtime = await openRuntime(state, config);
    state.log.configure(config.logging);
  } catch (error) {
    const cause = messageOf(error);
    try {
      state.runtime = await openRuntime(state, previous.config);
    } catch (again) {
      throw new Error(`${named(config)} cannot be opened (${cause}), and reopening ${named(previous.config)} failed too (${messageOf(again)})`, { cause: again });
    }
    throw new Error(`${named(config)} cannot be opened (${cause}); ${named(previous.config)} stays active`, { cause: error });
  }
}
