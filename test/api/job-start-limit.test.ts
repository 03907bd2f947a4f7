// The documented bound on one job start (JOB_START_LIMIT: 100,000 values, its variables included):
// past it, a 413 naming the limit, over HTTP before the body is parsed and over IPC before it is
// handled; at it, the job starts. Large bodies take their turn while the status route still answers.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_START_LIMIT } from '../../core/contract/jobs';
import { dispatch } from '../../core/dispatch/dispatch';
import { startTestHost, type TestHost } from '../support/host';
import { workflow } from '../engine/queue/support';

let dataDir: string;
let host: TestHost;
const limitText = `more than ${JOB_START_LIMIT.values.toLocaleString('en')} values, the most one job start (its variables included) may carry`;
/** A start whose body holds `values` values in all (the body object, options, variables and the list's items). */
const startWith = (values: number) => ({ workflow: 'Small', options: { variables: { list: Array.from({ length: values - 5 }, (_v, i) => i) } } });

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-start-limit-'));
  host = await startTestHost({ dataDir });
  const flow = workflow('Small', { s: { name: 'stub', variables: { incoming: { type: 'success', delay: '', response: 'ok' }, outgoing: { response: null } } } }, [['workflow_start', 's'], ['s', 'workflow_end']]);
  expect((await host.api('/workflows', { method: 'POST', json: flow })).status).toBeLessThan(300);
}, 60_000);
afterAll(async () => {
  await host?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('one job start past its documented bound', () => {
  it('is answered 413 naming the limit over HTTP, while the status route answers', async () => {
    const big = host.api('/operations-manager/jobs/start', { method: 'POST', json: startWith(999_000) });
    const status = await host.api('/health/status');
    expect(status.status).toBe(200);
    const answer = await big;
    expect(answer.status).toBe(413);
    const body = await answer.json();
    expect(body.message).toBe(`body: ${limitText}`);
    expect(body.issues).toEqual([{ path: 'body', message: limitText }]);
  });

  it('is answered the same by an endpoint trigger and over IPC (the dispatcher)', async () => {
    const trigger = await host.api('/operations-manager/triggers/endpoint/anything', { method: 'POST', json: startWith(JOB_START_LIMIT.values + 1) });
    expect(trigger.status).toBe(413);
    expect((await trigger.json()).message).toContain(limitText);
    const ipc = { transport: 'ipc' as const, caller: 'test', setHeader: () => undefined, setStatus: () => undefined };
    await expect(dispatch(host.handlers, 'jobs.start', { body: startWith(JOB_START_LIMIT.values + 1) }, ipc)).rejects.toMatchObject({ code: 'too_large', message: `body: ${limitText}` });
  });

  it('starts a job at the bound', async () => {
    const answer = await host.api('/operations-manager/jobs/start', { method: 'POST', json: startWith(JOB_START_LIMIT.values) });
    expect(answer.status).toBe(200);
  });
});
