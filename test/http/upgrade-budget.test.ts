// The upgrade check of a huge folder is bounded: a file and a time budget, cancel, and the
// one-request form answers 202 with the run to follow when the check outlasts a few seconds.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';

// /usr holds hundreds of thousands of files: listing it whole takes a minute or more.
const HUGE = '/usr';
const hasHuge = existsSync(HUGE);
if (!hasHuge) console.log('upgrade-budget: the time-budget cases are skipped, they need a large /usr');

let host: TestHost;
let site: string;
beforeAll(async () => {
  host = await startTestHost();
  site = await mkdtemp(path.join(os.tmpdir(), 'console-budget-'));
  await mkdir(path.join(site, 'app'));
  for (let i = 0; i < 120; i++) await writeFile(path.join(site, 'app', `f${String(i).padStart(3, '0')}.js`), `module.exports = ${i};\n`);
});
afterAll(async () => {
  await host?.dispose();
  await rm(site, { recursive: true, force: true });
});

const post = (pathname: string, json?: unknown) => host.api(pathname, { method: 'POST', ...(json ? { json } : {}) });
const until = async <T>(what: () => Promise<T | undefined>, ms = 20_000): Promise<T> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await what();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('upgrade check budgets', () => {
  it('reads at most maxFiles files and lists the rest as skipped', async () => {
    const response = await post('/upgrade/check', { path: site, maxFiles: 50 });
    expect(response.status).toBe(200);
    const report = await response.json();
    expect(report.summary.filesScanned).toBe(50);
    expect(report.summary.skipped).toContainEqual({ file: expect.any(String), reason: 'more than 50 files to read; the rest of the folder was not read' });
  });

  it('answers a budget out of range with a 400 naming the field', async () => {
    const response = await post('/upgrade/check', { path: site, maxSeconds: 0 });
    expect(response.status).toBe(400);
    expect((await response.json()).issues[0].path).toBe('body.maxSeconds');
  });

  it.skipIf(!hasHuge)('stops at the time budget, saying what was not read', async () => {
    const started = await (await post('/upgrade/checks', { path: HUGE, maxSeconds: 1 })).json();
    expect(started.limits).toEqual({ maxFiles: 50_000, maxSeconds: 1 });
    const run = await until(async () => {
      const now = await (await host.api(`/upgrade/checks/${started.id}`)).json();
      return now.state === 'running' ? undefined : now;
    });
    expect(run.state).toBe('done');
    expect(run.report.summary.skipped.map((s: { reason: string }) => s.reason).join('\n')).toContain('the time budget of the check was spent');
  });

  it.skipIf(!hasHuge)('answers the one-request form 202 with the run when it outlasts a few seconds, and cancels it', async () => {
    const response = await post('/upgrade/check', { path: HUGE, maxSeconds: 600 });
    expect(response.status).toBe(202);
    const run = await response.json();
    expect(run).toMatchObject({ id: expect.any(String), state: 'running', path: HUGE });
    expect(response.headers.get('location')).toBe(`/upgrade/checks/${run.id}`);

    const canceledAt = Date.now();
    const canceled = await post(`/upgrade/checks/${run.id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(await canceled.json()).toMatchObject({ id: run.id, state: 'canceled', phase: 'finished' });
    expect(Date.now() - canceledAt).toBeLessThan(5_000);
    expect((await (await host.api(`/upgrade/checks/${run.id}`)).json()).state).toBe('canceled');
  }, 60_000);

  it('answers the cancel of an unknown run 404', async () => {
    const response = await post('/upgrade/checks/00000000-0000-0000-0000-000000000000/cancel');
    expect(response.status).toBe(404);
  });
});
