// Handlers of the health operations: applications and adapters in the reference shape, adapter
// start/stop/restart, the removed `GET /admin/services/health` (answered through the lifecycle
// mechanism of lifecycle.ts) and the log of calls to deprecated APIs.
import type { ApplicationRegistry } from '../applications/registry';
import { AdapterError, type AdapterManager } from '../adapters';
import type { HealthItem } from '../contract/health';
import { OpError } from '../dispatch/dispatch';
import type { DeprecatedCallLog } from './lifecycle';
import { applyHealthQuery } from './query';
import { healthStatus, type StatusDeps } from './status';

export interface HealthDeps extends StatusDeps {
  /** The built-in applications of this console process. */
  applications: ApplicationRegistry;
  /** The active profile's adapters. */
  adapters(): AdapterManager;
  /** Calls to deprecated APIs, one log per host: the counts survive profile switches, not restarts. */
  callLog: DeprecatedCallLog;
}

export type HealthService = HealthDeps;

export function createHealthService(deps: HealthDeps): HealthService {
  return deps;
}

function asOpError(error: unknown): never {
  if (error instanceof AdapterError) {
    const status = error.kind === 'unknown-adapter' ? 404 : error.kind === 'failed' ? 409 : 500;
    throw new OpError(status, error.message, { adapter: error.adapter });
  }
  throw error;
}

function one(items: HealthItem[], name: string, kind: 'application' | 'adapter', known: string[]) {
  const item = items.find((i) => i.id === name);
  if (!item) throw new OpError(404, `no ${kind} "${name}" (${kind}s: ${known.join(', ') || 'none'})`);
  return { results: [item], total: 1 };
}

export function healthHandlers(service: HealthService) {
  const { applications } = service;
  const adapters = (): AdapterManager => service.adapters();
  const adapterAction = async (name: string, action: (m: AdapterManager) => Promise<void>) => {
    const manager = adapters();
    try {
      await action(manager);
      return await manager.item(name);
    } catch (error) {
      return asOpError(error);
    }
  };
  return {
    'health.status': () => healthStatus(service),
    'health.applications': async ({ query }: { query: Parameters<typeof applyHealthQuery>[1] }) => applyHealthQuery(applications.items(), query),
    'health.application': async ({ params }: { params: { name: string } }) =>
      one(applications.items(), params.name, 'application', applications.ids()),
    'health.adapters': async ({ query }: { query: Parameters<typeof applyHealthQuery>[1] }) => applyHealthQuery(await adapters().items(), query),
    'health.adapter': async ({ params }: { params: { name: string } }) => {
      const manager = adapters();
      if (!manager.has(params.name)) return one([], params.name, 'adapter', manager.list());
      return { results: [await manager.item(params.name)], total: 1 };
    },
    'adapters.start': ({ params }: { params: { name: string } }) => adapterAction(params.name, (m) => m.start(params.name)),
    'adapters.stop': ({ params }: { params: { name: string } }) => adapterAction(params.name, (m) => m.stop(params.name)),
    'adapters.restart': ({ params }: { params: { name: string } }) => adapterAction(params.name, (m) => m.restart(params.name)),
    'adapters.methods': async ({ params }: { params: { name: string } }) => {
      const methods = adapters().methodInfo(params.name);
      if (!methods) throw new OpError(404, `no adapter "${params.name}" (adapters: ${adapters().list().join(', ') || 'none'})`);
      return { id: params.name, methods };
    },
    'health.legacyServices': async () => {
      const items = [...applications.items(), ...(await adapters().items())];
      return { results: items, total: items.length };
    },
    'health.deprecatedCalls': async () => {
      const results = service.callLog.list();
      return { results, total: results.length };
    },
  };
}
