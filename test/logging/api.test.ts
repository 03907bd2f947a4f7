// GET /logs on a real host: what the console did (requests, jobs, tasks, adapters, the worker),
// filtered as an operator filters the Logs page, and the file under the data directory.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { waitFor, workflow } from '../engine/queue/support';

// codePointAt at position -1 ends in error; with no error transition the job stops in error.
const failing = workflow('log-failing', { cp: { name: 'codePointAt', variables: { incoming: { str: 'abc', pos: -1 }, outgoing: {} } } }, [
  ['workflow_start', 'cp'],
  ['cp', 'workflow_end'],
]);
const passing = workflow('log-passing', { up: { name: 'toUpperCase', variables: { incoming: { str: 'abc' }, outgoing: {} } } }, [
  ['workflow_start', 'up'],
  ['up', 'workflow_end'],
]);

type Entry = { seq: number; time: string; level: string; msg: string; fields: Record<string, unknown> };

describe('GET /logs', () => {
  let host: TestHost;
  let failedJob: string;
  let passedJob: string;
  const logs = async (query = '') => {
    const response = await host.api(`/logs${query}`);
    return { status: response.status, body: (await response.json()) as { results: Entry[]; total: number; last: number; file: string; message?: string } };
  };

  beforeAll(async () => {
    host = await startTestHost();
    for (const flow of [failing, passing]) expect((await host.api('/workflows', { method: 'POST', json: flow })).status).toBe(201);
    const start = async (name: string) =>
      ((await (await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: name } })).json()) as { data: { _id: string } }).data._id;
    failedJob = await start('log-failing');
    passedJob = await start('log-passing');
    await waitFor('both jobs to end', async () => {
      const { body } = await logs('?level=info&limit=1000');
      const ended = (id: string) => body.results.some((e) => e.fields.jobId === id && ['error', 'complete'].includes(String(e.fields.status)));
      return ended(failedJob) && ended(passedJob);
    });
  });
  afterAll(() => host?.dispose());

  it('has each job state change and the task error, with the job and task ids', async () => {
    const { status, body } = await logs(`?job=${failedJob}`);
    expect(status).toBe(200);
    expect(body.results.every((e) => e.fields.jobId === failedJob)).toBe(true);
    const messages = body.results.map((e) => e.msg);
    expect(messages).toContain('job of workflow "log-failing" started');
    const taskError = body.results.find((e) => e.msg.startsWith('task cp (codePointAt) ended in error'));
    expect(taskError).toMatchObject({ level: 'error', fields: { jobId: failedJob, taskId: 'cp', recordId: expect.any(String), workerId: expect.any(String) } });
    expect(body.results.find((e) => e.fields.status === 'error')).toMatchObject({ level: 'error', msg: expect.stringContaining('stopped in error') });
  });

  it('filters by level: errors only', async () => {
    const { body } = await logs('?level=error');
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results.every((e) => e.level === 'error' || e.level === 'fatal')).toBe(true);
    expect(body.results.some((e) => e.fields.jobId === passedJob)).toBe(false);
  });

  it('filters by text, case-insensitive, in the message and the fields', async () => {
    const { body } = await logs('?text=LOG-PASSING');
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results.every((e) => `${e.msg} ${JSON.stringify(e.fields)}`.toLowerCase().includes('log-passing'))).toBe(true);
    expect(body.results.some((e) => e.fields.status === 'complete' && e.fields.jobId === passedJob)).toBe(true);
  });

  it('filters by adapter', async (ctx) => {
    const adapters = (await (await host.api('/health/adapters')).json()) as { results: { id: string; state: string }[] };
    if (!adapters.results.some((a) => a.state === 'RUNNING')) {
      console.log('[skip] filtering the log by adapter: a fresh profile runs no adapter instance');
      ctx.skip('a fresh profile runs no adapter instance');
    }
    // Whichever adapter instance the profile starts first: its entries carry its id.
    const first = await waitFor('an adapter entry', async () => (await logs('?text=adapter')).body.results.find((e) => typeof e.fields.adapter === 'string'));
    const id = String(first.fields.adapter);
    const { body } = await logs(`?adapter=${encodeURIComponent(id)}`);
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results.every((e) => e.fields.adapter === id)).toBe(true);
    expect(body.results.map((e) => e.msg)).toContain(`adapter "${id}" starting`);
  });

  it('logs every request with its id, status and time', async () => {
    await host.api('/workflows/no-such-flow');
    const { body } = await logs('?text=/workflows/no-such-flow');
    expect(body.results.find((e) => e.msg === 'request')).toMatchObject({
      fields: { reqId: expect.any(String), method: 'GET', url: '/workflows/no-such-flow', statusCode: 404, ms: expect.any(Number) },
    });
  });

  it("logs the console UI's own reads at debug, naming it 'console UI' rather than a browser's user agent; its writes at info", async () => {
    const ui = { 'x-caller': 'console UI', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' };
    await host.api('/workflows/ui-poll-marker', { headers: ui });
    await host.api('/workflows/script-read-marker');
    await host.api('/workflows/ui-write-marker', { method: 'DELETE', headers: ui });
    // The profile logs at info: the UI's read is below it, a script's same read is not.
    expect((await logs('?text=ui-poll-marker')).body.results.filter((e) => e.msg === 'request')).toEqual([]);
    expect((await logs('?text=script-read-marker')).body.results.find((e) => e.msg === 'request')).toMatchObject({ level: 'info' });
    const write = (await logs('?text=ui-write-marker')).body.results.find((e) => e.msg === 'request');
    expect(write).toMatchObject({ level: 'info', fields: { method: 'DELETE', caller: expect.stringMatching(/^console UI \(/) } });
    expect(JSON.stringify(write)).not.toContain('Mozilla');
  });

  it('follows the log with after= and keeps to the limit', async () => {
    const first = await logs('?limit=3');
    expect(first.body.results).toHaveLength(3);
    expect(first.body.total).toBeGreaterThan(3);
    await host.api('/workflows/after-marker');
    const next = await logs(`?after=${first.body.last}`);
    expect(next.body.results.every((e) => e.seq > first.body.last)).toBe(true);
    expect(next.body.results.some((e) => e.fields.url === '/workflows/after-marker')).toBe(true);
  });

  it('answers a bad filter with a 400 naming it', async () => {
    const { status, body } = await logs('?level=loud');
    expect(status).toBe(400);
    expect(body.message).toContain('query.level');
    expect((await logs('?limit=0')).body.message).toContain('query.limit');
    const badFrom = await logs('?from=yesterday');
    expect(badFrom.status).toBe(400);
    expect(badFrom.body.message).toContain('query.from');
    const backwards = await logs('?from=2026-11-28T02:00:00Z&to=2026-11-28T01:00:00Z');
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toContain('query.to');
  });

  it('filters by task and by component', async () => {
    const byTask = (await logs(`?job=${failedJob}&task=cp`)).body.results;
    expect(byTask.length).toBeGreaterThan(0);
    expect(byTask.every((e) => e.fields.taskId === 'cp' && e.fields.jobId === failedJob)).toBe(true);
    const http = (await logs('?component=http')).body.results;
    expect(http.length).toBeGreaterThan(0);
    expect(http.every((e) => e.fields.component === 'http')).toBe(true);
  });

  it('filters by time range: from and to bound the entries, each way', async () => {
    const all = (await logs('?limit=1000')).body.results;
    const times = all.map((e) => Date.parse(e.time));
    // A cut strictly inside the log: some entries before it, some at or after it.
    const cut = times.find((t) => t > (times[0] ?? Infinity));
    if (cut === undefined) throw new Error('the log was written within one millisecond: no cut to test');
    const after = (await logs(`?from=${new Date(cut).toISOString()}&limit=1000`)).body.results;
    const before = (await logs(`?to=${new Date(cut - 1).toISOString()}&limit=1000`)).body.results;
    expect(after.length).toBeGreaterThan(0);
    expect(before.length).toBeGreaterThan(0);
    expect(after.every((e) => Date.parse(e.time) >= cut)).toBe(true);
    expect(before.every((e) => Date.parse(e.time) < cut)).toBe(true);
    expect((await logs('?from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z')).body.results).toEqual([]);
  });

  it('writes the same entries to the log file under the data directory', async () => {
    const { body } = await logs();
    expect(body.file).toBe(path.join(host.dataDir, 'logs', 'console.log'));
    const lines = (await readFile(body.file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.some((line) => line.jobId === failedJob && String(line.msg).startsWith('task cp (codePointAt) ended in error'))).toBe(true);
  });
});
