// The preload bridge exposes exactly the contract's operations, never ipcRenderer.
import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ contextBridge: { exposeInMainWorld: vi.fn() }, ipcRenderer: { invoke: vi.fn() } }));
const { buildBridge, operationNamesFromArgv } = await import('../../../main/preload');
const { operationNames } = await import('../../../core/contract');
const { OPERATIONS_ARG } = await import('../../../main/security');

describe('preload bridge', () => {
  it('reads the operation names the main process passed', () => {
    expect(operationNamesFromArgv(['electron', OPERATIONS_ARG + operationNames.join(',')])).toEqual(operationNames);
    expect(operationNamesFromArgv(['electron'])).toEqual([]);
  });

  it('has one function per operation, each invoking its own channel', async () => {
    const calls: [string, unknown][] = [];
    const bridge = buildBridge([...operationNames], async (channel, input) => {
      calls.push([channel, input]);
      return { ok: true, data: null };
    });
    expect(Object.keys(bridge)).toEqual(['operations', 'desktop']);
    expect(Object.keys(bridge.desktop)).toEqual(['saveDrillPdf']);
    expect(Object.keys(bridge.operations).sort()).toEqual([...operationNames].sort());
    await bridge.operations['health.status']!();
    expect(calls).toEqual([['op:health.status', {}]]);
    expect(Object.isFrozen(bridge.operations)).toBe(true);
  });
});
