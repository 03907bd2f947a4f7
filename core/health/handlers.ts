// Handlers of the health operations: applications and adapters in the reference shape, the
// removed `GET /admin/services/health` (answered through the lifecycle mechanism of
// lifecycle.ts) and the log of calls to deprecated APIs. Start/stop/restart are the adapters'
// and applications' own operations.
import type { Applications } from '../applications';
import type { AdapterManager } from '../adapters';
import type { HealthItem } from '../contract/health';
import { ConsoleError } from '../errors';
import type { DeprecatedCallLog } from './lifecycle';
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
  const applications = () => service.applications();
  const adapters = (): AdapterManager => service.adapters();
  return {
    'health.status': () => healthStatus(service),
    'health.server': () => serverHealth(),
    'health.system': () => systemHealth(),
    'health.applications': async ({ query }: { query: Parameters<typeof applyHealthQuery>[1] }) => applyHealthQuery(await applications().items(), query),
    'health.application': async ({ params }: { params: { name: string } }) =>
      one(await applications().items(), params.name, 'application', applications().ids()),
    'health.adapters': async ({ query }: { query: Parameters<typeof applyHealthQuery>[1] }) => applyHealthQuery(await adapters().items(), query),
    'health.adapter': async ({ params }: { params: { name: string } }) => {
      const manager = adapters();
      if (!manager.has(params.name)) return one([], params.name, 'adapter', manager.list());
      return { results: [await manager.item(params.name)], total: 1 };
    },
    'health.legacyServices': async () => {
      const items = [...(await applications().items()), ...(await adapters().items())];
      return { results: items, total: items.length };
    },
    'health.deprecatedCalls': async () => {
      const results = service.callLog.list();
      return { results, total: results.length };
    },
  };
}
