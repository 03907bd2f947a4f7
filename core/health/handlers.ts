// Handlers of the health operations: applications and adapters in the reference shape, the
// removed `GET /admin/services/health` (answered through the lifecycle mechanism of
// lifecycle.ts) and the log of calls to deprecated APIs.
import type { AdapterManager } from '../adapters';
import type { HealthItem } from '../contract/health';
import { OpError } from '../dispatch/dispatch';
import type { HostState } from '../host/state';
import { DeprecatedCallLog } from './lifecycle';
import { applyHealthQuery } from './query';

/** One log per host: the counts survive profile switches, not console restarts. */
const callLogs = new WeakMap<HostState, DeprecatedCallLog>();
export function deprecatedCallLog(state: HostState): DeprecatedCallLog {
  let log = callLogs.get(state);
  if (!log) callLogs.set(state, (log = new DeprecatedCallLog()));
  return log;
}

function one(items: HealthItem[], name: string, kind: 'application' | 'adapter', known: string[]) {
  const item = items.find((i) => i.id === name);
  if (!item) throw new OpError(404, `no ${kind} "${name}" (${kind}s: ${known.join(', ') || 'none'})`);
  return { results: [item], total: 1 };
}

export function healthHandlers(state: HostState) {
  const adapters = (): AdapterManager => state.runtime.adapters.manager;
  const applications = () => state.runtime.applications;
  return {
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
      const results = deprecatedCallLog(state).list();
      return { results, total: results.length };
    },
  };
}
