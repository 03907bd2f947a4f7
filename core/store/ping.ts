// One ping in flight per store: the status bar and the store card poll, and an
// unreachable MongoDB takes seconds to answer; pollers share that one wait.
import type { Store } from './port';
import { errorMessage } from '../errors';

// Keyed by the store object (weakly): the ping in flight belongs to that store and goes with it.
const pending = new WeakMap<Store, Promise<void>>();

export function sharedPing(store: Store): Promise<void> {
  let ping = pending.get(store);
  if (!ping) {
    ping = store.ping().finally(() => pending.delete(store));
    pending.set(store, ping);
  }
  return ping;
}

/** Whether the store answers, and if not why. */
export async function storeHealth(store: Store): Promise<{ connected: boolean; error?: string }> {
  try {
    await sharedPing(store);
    return { connected: true };
  } catch (error) {
    return { connected: false, error: errorMessage(error) };
  }
}
