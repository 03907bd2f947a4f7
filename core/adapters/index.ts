// Adapters of the active profile, in the service's format: packages found under the profile's
// sdk_dir, `<data-dir>/adapters` and the console's own adapters/ folder; one instance per service
// config (the store's `service_configs`), each in its own process. The runtime opens them with
// the profile and closes them with it; the workflow engine calls them through `call`.
import type { RuntimeConfig } from '../profiles/runtime-config';
import type { Store } from '../store/port';
import { storeDesiredStates } from '../applications/desired-state';
import { openAll, sealAll } from '../profiles/secrets';
import { createVault, type Vault } from '../secrets/secrets';
import { AdapterInstances, type SecretsAtRest } from './instances';
import { AdapterManager, type AdapterManagerOptions } from './manager';
import { CallRecorder } from './simulated/recordings';
import { dataDirAdapters, productRoot, runnerPath, shippedAdaptersDir } from './locate';

export { AdapterManager, type AdapterManagerOptions, type AdapterAnswer } from './manager';
export { DEFAULT_BACKOFF, type BackoffOptions } from './backoff';
export { isStub } from './entry';
export { AdapterInstances, ConflictError, SERVICE_CONFIGS, type AdapterView } from './instances';
export { SIMULATED_ADAPTERS } from './simulated/instance';
export { AdapterError, type AdapterErrorCause } from './errors';
export { readAdapterPackage, findMethod, type AdapterPackage, type PronghornMethod } from './package';
export { discoverPackages, packageForType } from './discover';
export { ConfigError, type ServiceConfig } from './service-config';
export { dataDirAdapters, shippedAdaptersDir, runnerPath, productRoot } from './locate';
export { forkLauncher, type AdapterLauncher, type AdapterChild, type LaunchOptions } from './launcher';
export { utilityProcessLauncher, type UtilityProcessModule } from './utility-launcher';

export async function openAdapters(
  dataDir: string,
  profile: Pick<RuntimeConfig, 'sdkDir' | 'sealSecrets' | 'allowSimulated'>,
  store: Store,
  options: Partial<AdapterManagerOptions> & { shippedDir?: string; productDir?: string; vault?: Vault } = {},
): Promise<AdapterInstances> {
  const { shippedDir, productDir, vault = createVault(dataDir), ...managerOptions } = options;
  const root = productRoot(productDir);
  const manager = new AdapterManager({ runner: runnerPath(root), ...managerOptions });
  const places = { sdkDir: profile.sdkDir, dataDirAdapters: dataDirAdapters(dataDir), shippedDir: shippedDir ?? shippedAdaptersDir(root) };
  // As the profile's own secrets: sealed at rest with `pathProps.encrypted`, never in an answer.
  const secrets: SecretsAtRest = {
    seal: async (json) => (profile.sealSecrets ? sealAll(vault, json) : json),
    open: (name, json) => openAll(vault, name, json),
  };
  const instances = new AdapterInstances(manager, { store, desired: storeDesiredStates(store), places, secrets });
  instances.simulationAllowed = profile.allowSimulated ?? true;
  instances.recorder = new CallRecorder(store);
  return instances.open();
}
