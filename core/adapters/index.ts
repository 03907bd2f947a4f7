// Adapters of the active profile, each in its own process. `openAdapters` discovers the shipped
// adapters and the profile's own and starts them; the runtime closes the manager with the profile.
// The workflow engine calls adapter methods through `AdapterManager.call` / `methods`.
import type { ProfileProperties } from '../profiles/directory';
import { AdapterManager, type AdapterManagerOptions } from './manager';
import { discoverAdapters } from './manifest';
import { profileAdaptersDir, runnerPath, shippedAdaptersDir } from './locate';

export { AdapterManager, DEFAULT_BACKOFF, type AdapterManagerOptions, type BackoffOptions } from './manager';
export { AdapterError, type AdapterErrorCause } from './errors';
export { discoverAdapters, type AdapterDefinition, type MethodInfo } from './manifest';
export { profileAdaptersDir, shippedAdaptersDir, runnerPath, productRoot } from './locate';
export { forkLauncher, type AdapterLauncher, type AdapterChild, type LaunchOptions } from './launcher';
export { utilityProcessLauncher, type UtilityProcessModule } from './utility-launcher';

export async function openAdapters(
  dataDir: string,
  profile: ProfileProperties,
  options: Partial<AdapterManagerOptions> & { shippedDir?: string; productDir?: string } = {},
): Promise<AdapterManager> {
  const { shippedDir, productDir, ...managerOptions } = options;
  const configDir = profileAdaptersDir(dataDir, profile);
  const definitions = await discoverAdapters(shippedDir ?? shippedAdaptersDir(productDir), configDir);
  const manager = new AdapterManager(definitions, { runner: runnerPath(productDir), configDir, ...managerOptions });
  manager.startAll();
  return manager;
}
