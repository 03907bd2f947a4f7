// Changes of profiles that the rest of the console reacts to: the host reopens what depends on
// the active profile (store, adapters, engine) when another is activated or the active one is
// saved. Listeners run in order and are awaited; an error from one is the change's error
// (an activation whose profile cannot be opened is refused and names why).
import type { ProfileProperties } from './directory';

export type ProfileEvent =
  /** `profile` is about to become the active profile (console.json is written after). */
  | { type: 'activating'; profile: ProfileProperties }
  /** `profile` was written to disk (an edit, a migration). */
  | { type: 'saved'; profile: ProfileProperties };

export type ProfileListener = (event: ProfileEvent) => Promise<void> | void;

export class ProfileEvents {
  private readonly listeners: ProfileListener[] = [];

  /** Adds a listener; returns the function that removes it. */
  on(listener: ProfileListener): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  async emit(event: ProfileEvent): Promise<void> {
    for (const listener of [...this.listeners]) await listener(event);
  }
}
