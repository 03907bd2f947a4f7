// One error taxonomy (core/errors): each code answers one status, over HTTP and IPC alike,
// whatever error class carries it; nothing is recognised by its name or message text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpcMainInvokeEvent } from 'electron';
import { pino } from 'pino';
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES, ConsoleError, codeOfStatus, errorMessage } from '../../core/errors';
import { errorBody, type Handlers, type RawInput } from '../../core/dispatch/dispatch';
import { buildHttpServer } from '../../core/http/server';
import { StoreError } from '../../core/store/errors';
import { AdapterError } from '../../core/adapters/errors';
import { registerOperations, type IpcReply } from '../../main/ipc';

describe('the code table', () => {
  it('gives each code its own status, and each status back its code', () => {
    const statuses = Object.values(ERROR_CODES).map((row) => row.status);
    expect(new Set(statuses).size).toBe(statuses.length);
    for (const [code, row] of Object.entries(ERROR_CODES)) expect(codeOfStatus(row.status)).toBe(code);
    expect(ERROR_CODES).toMatchObject({
      bad_input: { status: 400 },
      not_found: { status: 404 },
      conflict: { status: 409 },
      gone: { status: 410 },
      too_large: { status: 413 },
      internal: { status: 500 },
      unavailable: { status: 503 },
    });
  });

  it('answers an error of any class by its code', () => {
    expect(errorBody(new ConsoleError('gone', 'removed in 2022.1'))).toEqual({ statusCode: 410, error: 'Gone', message: 'removed in 2022.1' });
    expect(errorBody(new ConsoleError('not_found', 'no such job', { id: 'j1' }))).toEqual({ statusCode: 404, error: 'Not Found', message: 'no such job', id: 'j1' });
    expect(errorBody(new AdapterError('unknown-adapter', 'Ansible', 'run', 'no adapter Ansible'))).toMatchObject({ statusCode: 404, adapter: 'Ansible' });
    expect(errorBody(new Error('a bug'))).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'a bug' });
  });

  it('answers a store that cannot be read like one that cannot be reached: 503', () => {
    expect(errorBody(new StoreError('damaged', 'the embedded collection jobs cannot be read back'))).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
    expect(errorBody(new StoreError('unreachable', 'cannot reach MongoDB at db1:27017'))).toMatchObject({ statusCode: 503 });
    expect(errorBody(new StoreError('duplicate-key', 'duplicate key in collection workflows'))).toMatchObject({ statusCode: 409 });
  });

  it("names a document the store refuses as the request's fault, and masks a secret a store message quotes", () => {
    expect(errorBody(new StoreError('invalid', 'key $where must not start with $'))).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'the store cannot keep this data: key $where must not start with $',
    });
    const leaked = errorBody(new StoreError('unreachable', 'cannot reach mongodb://admin:s3cret-pw@db1:27017'));
    expect(leaked.message).not.toContain('s3cret-pw');
  });

  it('reads the message of anything thrown', () => {
    expect(errorMessage(new Error('x'))).toBe('x');
    expect(errorMessage('plain text')).toBe('plain text');
  });
});

describe('both transports', () => {
  const damaged = new StoreError('damaged', 'the embedded collection workflows cannot be read back');
  const handlers = new Proxy({} as Handlers, { get: () => () => Promise.reject(damaged) });
  let http: FastifyInstance;
  beforeAll(async () => {
    http = await buildHttpServer({ handlers, token: 't' });
    await http.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => http?.close());

  it('answer the same status and body for the same error', async () => {
    const address = http.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const response = await fetch(`http://127.0.0.1:${port}/workflows`, { headers: { authorization: 'Bearer t' } });
    const overHttp = { statusCode: response.status, json: await response.json() };
    const channels = new Map<string, (event: IpcMainInvokeEvent, input: RawInput) => Promise<IpcReply>>();
    registerOperations({ handle: (channel, listener) => void channels.set(channel, listener) }, () => handlers, pino({ level: 'silent' }), () => true);
    const listener = channels.get('op:workflows.list');
    if (!listener) throw new Error('no IPC channel for workflows.list');
    const overIpc = await listener({} as IpcMainInvokeEvent, {});
    expect(overHttp.statusCode).toBe(503);
    expect(overIpc).toEqual({ ok: false, error: overHttp.json });
  });
});
