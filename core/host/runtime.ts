// Everything that depends on the active profile. Opened when the host starts, and
// closed and opened again when the operator activates another profile, so the
// console is reconfigured without a restart. Capabilities that need the profile
// (the store, the task worker, adapters) open here and close in reverse order.
import type { ProfileProperties } from '../profiles/directory';

export interface Runtime {
  profile: ProfileProperties;
}

export async function openRuntime(_dataDir: string, profile: ProfileProperties): Promise<Runtime> {
  return { profile };
}

export async function closeRuntime(_runtime: Runtime): Promise<void> {}
