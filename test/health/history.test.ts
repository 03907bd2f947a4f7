// The recent states of each application and adapter: a bounded ring of changes per instance, fed
// by every read of the states, and on the health API as the additive `history` field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { StateHistory } from '../../core/health/history';
import { startTestHost, type TestHost } from '../support/host';

const T = Date.UTC(2026, 10, 28, 1, 0, 0);

describe('StateHistory', () => {
  it('keeps a change, not every reading, and a connection not read stays the last one seen', () => {
    const history = new StateHistory();
    history.observe('adapter', 'gitlab', { state: 'RUNNING', connection: 'ONLINE' }, T);
    history.observe('adapter', 'gitlab', { state: 'RUNNING', connection: 'ONLINE' }, T + 1_000);
    history.observe('adapter', 'gitlab', { state: 'RUNNING' }, T + 2_000);
    history.observe('adapter', 'gitlab', { state: 'DEAD', connection: 'OFFLINE' }, T + 3_000);
    history.observe('adapter', 'gitlab', { state: 'RUNNING' }, T + 4_000);
    const [item] = history.withHistory('adapter', [{ id: 'gitlab', state: 'RUNNING' } as never], T + 5_000);
    expect(item!.history).toEqual([
      { at: new Date(T).toISOString(), state: 'RUNNING', connection: 'ONLINE' },
      { at: new Date(T + 3_000).toISOString(), state: 'DEAD', connection: 'OFFLINE' },
      { at: new Date(T + 4_000).toISOString(), state: 'RUNNING', connection: 'OFFLINE' },
    ]);
  });

  it('keeps an application apart from an adapter of the same name', () => {
    const history = new StateHistory();
    history.observe('application', 'x', { state: 'STOPPED' }, T);
    history.observe('adapter', 'x', { state: 'RUNNING' }, T);
    expect(history.withHistory('application', [{ id: 'x', state: 'STOPPED' } as never])[0]!.history!.map((c) => c.state)).toEqual(['STOPPED']);
  });

  it('stays bounded per instance and in instances, keeping the newest changes in order', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.constantFrom('RUNNING', 'STOPPED', 'DEAD' as const)), { maxLength: 300 }), (readings) => {
        const history = new StateHistory(5, 10);
        readings.forEach(([id, state], i) => history.observe('adapter', `a${id}`, { state }, T + i));
        for (let id = 0; id <= 30; id++) {
          const own = readings.map(([r, state], i) => ({ r, state, i })).filter((x) => x.r === id);
          const kept = history.withHistory('adapter', [{ id: `a${id}`, state: own.at(-1)?.state ?? 'RUNNING' } as never], T + 10_000)[0]!.history!;
          if (kept.length > 6 || kept.some((c, i) => i > 0 && c.at < kept[i - 1]!.at)) return false;
        }
        return true;
      }),
    );
  });
});

describe('GET /health/applications: history', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(() => host?.dispose());

  const history = async (name: string) =>
    ((await (await host.api(`/health/applications/${name}`)).json()) as { results: { history: { state: string; at: string }[] }[] }).results[0]!.history.map((c) => c.state);

  it('shows an application stopped and started again as three changes, oldest first', async () => {
    expect(await history('OperationsManager')).toEqual(['RUNNING']);
    expect((await host.api('/applications/OperationsManager/stop', { method: 'PUT' })).status).toBe(200);
    expect(await history('OperationsManager')).toEqual(['RUNNING', 'STOPPED']);
    expect((await host.api('/applications/OperationsManager/start', { method: 'PUT' })).status).toBe(200);
    // The status every caller polls sees the change too; the list answers it.
    expect((await host.api('/health/status')).status).toBe(200);
    const list = (await (await host.api('/health/applications?equals=OperationsManager&equalsField=name')).json()) as { results: { history: { state: string }[] }[] };
    expect(list.results[0]!.history.map((c) => c.state)).toEqual(['RUNNING', 'STOPPED', 'RUNNING']);
  });
});
