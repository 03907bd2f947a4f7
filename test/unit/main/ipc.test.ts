// IPC handlers: one per operation, each checking its sender, answering like the HTTP API.
import { describe, expect, it } from 'vitest';
import type { IpcMainInvokeEvent } from 'electron';
import { pino } from 'pino';
import { registerOperations, type IpcReply } from '../../../main/ipc';
import { operationNames } from '../../../core/contract';
import type { Handlers } from '../../../core/dispatch/dispatch';

function fakeIpc() {
  const channels = new Map<string, (event: IpcMainInvokeEvent, input: unknown) => Promise<IpcReply>>();
  return { channels, handle: (channel: string, listener: never) => channels.set(channel, listener) };
}

const status = { release: '2022.1', serverId: 's', serverName: 'n', profile: 'p', store: 'embedded', services: [], taskWorker: { running: false } };
const handlers = { 'health.status': () => status } as unknown as Handlers;
const trustedEvent = { trusted: true } as unknown as IpcMainInvokeEvent;
const strangerEvent = { trusted: false } as unknown as IpcMainInvokeEvent;

describe('registerOperations', () => {
  const ipc = fakeIpc();
  registerOperations(ipc, () => handlers, pino({ level: 'silent' }), (event) => (event as unknown as { trusted: boolean }).trusted);

  it('registers exactly one channel per operation of the contract', () => {
    expect([...ipc.channels.keys()].sort()).toEqual(operationNames.map((n) => `op:${n}`).sort());
  });

  it('answers a trusted sender through the operation handler', async () => {
    const reply = await ipc.channels.get('op:health.status')!(trustedEvent, {});
    expect(reply).toEqual({ ok: true, data: status });
  });

  it('refuses any other sender with a 403 error', async () => {
    const reply = await ipc.channels.get('op:health.status')!(strangerEvent, {});
    expect(reply).toMatchObject({ ok: false, error: { statusCode: 403 } });
    expect(reply.ok || reply.error.message).toContain('not the console window');
  });
});
