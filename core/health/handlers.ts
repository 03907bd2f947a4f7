// Handlers of the health operations: applications and adapters in the reference shape, the
// removed `GET /admin/services/health` (answered through the lifecycle mechanism of
// lifecycle.ts) and the log of calls to deprecated APIs. Start/stop/restart are the adapters'
// and applications' own operations.
import type { Applications } from '../applications';
import { APPLICATIONS_VERSION } from '../applications/registry';
import type { AdapterManager } from '../adapters';
import type { HealthItem } from '../contract/health';
import { ConsoleError } from '../errors';
import type { DeprecatedCallLog } from './lifecycle';
import type { StateHistory } from './history';
import { applyHealthQuery } from './query';
import { healthStatus, type StatusDeps } from './status';
import { serverHealth, systemHealth } from './server';

export interface HealthDeps extends StatusDeps {
  /** The active profile's applications and their lifecycle. */
  applications(): Applications;
  /** The active profile's adapters. */
  adapters(): AdapterManager;
  /** Calls to deprecated APIs, one log per host: the counts survive profile switches, not restarts. */
  callLog: DeprecatedCallLog;
  /** Each application's and adapter's recent states, one ring per host: fed by every read of them. */
  history: StateHistory;
}

export type HealthService = HealthDeps;

export function createHealthService(deps: HealthDeps): HealthService {
  return deps;
}

function one(items: HealthItem[], name: string, kind: 'application' | 'adapter', known: string[]) {
  const item = items.find((i) => i.id === name);
  if (!item) throw new ConsoleError('not_found', `no ${kind} "${name}" (${kind}s: ${known.join(', ') || 'none'})`);
  return { results: [item], total: 1 };
}

export function healthHandlers(service: HealthService) {
  const applications = async () => service.history.withHistory('application', await service.applications().items());
  const adapters = async () => service.history.withHistory('adapter', await service.adapters().items());
  return {
    'health.status': () => healthStatus(service),
    'health.version': () => APPLICATIONS_VERSION,
    'health.server': () => serverHealth(),
    'health.system': () => systemHealth(),
    'health.applications': async ({ query }: { query: Parameters<typeof applyHealthQuery>[1] }) => applyHealthQuery(await applications(), query),
    'health.application': async ({ params }: { params: { name: string } }) => one(await applications(), params.name, 'application', service.applications().ids()),
    'health.adapters': async ({ query }: { query: Parameters<typeof applyHealthQuery>[1] }) => applyHealthQuery(await adapters(), query),
    'health.adapter': async ({ params }: { params: { name: string } }) => {
      const manager: AdapterManager = service.adapters();
      if (!manager.has(params.name)) return one([], params.name, 'adapter', manager.list());
      return { results: service.history.withHistory('adapter', [await manager.item(params.name)]), total: 1 };
    },
    'health.legacyServices': async () => {
      // The removed route answers the service's shape: no history.
      const items = [...(await service.applications().items()), ...(await service.adapters().items())];
      return { results: items, total: items.length };
    },
    'health.deprecatedCalls': async () => {
      const results = service.callLog.list();
      return { results, total: results.length };
    },
  };
}
