// Where a lab drill's two consoles share their database: one embedded SQLite file when this
// build's store opens `embeddedProps.file`, otherwise one MongoDB-wire test server.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { jongodbBinary, startJongodb, type TestMongo } from '../store/jongodb';
import { expect } from 'vitest';
import type { DrillReport } from '../../core/drills/types';
import type { TestHost } from '../support/host';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const embeddedFileShared = readFileSync(path.join(ROOT, 'core/store/open.ts'), 'utf8').includes('embeddedProps');

export async function sharedDatabase(): Promise<{ mongo?: TestMongo; why: string } | { unavailable: string }> {
  if (embeddedFileShared) return { why: 'one embedded SQLite file (embeddedProps.file)' };
  const found = jongodbBinary();
  if ('unavailable' in found) return { unavailable: `this store cannot share an embedded file and ${found.unavailable}` };
  return { mongo: await startJongodb(), why: 'one MongoDB-wire test server (this store cannot share an embedded file)' };
}

/** A pass-through HTTP proxy in front of a site (its URL, or where it is now) that records when each call reached it. */
export async function recordingProxy(target: string | (() => string)): Promise<{ url: string; calls: { at: number; method: string; path: string }[]; close(): Promise<void> }> {
  const http = await import('node:http');
  const calls: { at: number; method: string; path: string }[] = [];
  const server = http.createServer((req, res) => {
    calls.push({ at: Date.now(), method: req.method ?? 'GET', path: req.url ?? '/' });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<string, string>;
      fetch((typeof target === 'string' ? target : target()) + (req.url ?? '/'), { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined })
        .then(async (answer) => {
          res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json', date: answer.headers.get('date') ?? new Date().toUTCString() });
          res.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch((error: Error) => res.writeHead(502).end(JSON.stringify({ message: `proxy: ${error.message}` })));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Starts a sites drill through `host`'s API and polls its report until it ends; `onReport` sees each one. */
export async function sitesDrillOver(host: Pick<TestHost, 'api'>, body: Record<string, unknown>, onReport: (r: DrillReport) => void = () => undefined): Promise<DrillReport> {
  const started = await host.api('/drills/sites', { method: 'POST', json: body });
  expect(started.status, await started.clone().text()).toBe(202);
  const { id } = (await started.json()) as { id: string };
  let report: DrillReport;
  do {
    await new Promise((r) => setTimeout(r, 100));
    report = (await (await host.api(`/drills/${id}`)).json()) as DrillReport;
    onReport(report);
  } while (report.status === 'running');
  return report;
}

/** Creates, through `host`'s API, "Read Changes": a workflow whose one task calls an adapter no site has (Servicenow). */
export async function createReadChanges(host: Pick<TestHost, 'api'>): Promise<void> {
  const task = { name: 'getChangeRequests', summary: 'Read change requests', description: '', app: 'Servicenow', location: 'Adapter', type: 'automatic', groups: [], variables: { incoming: {}, outgoing: { result: null } } };
  const created = await host.api('/workflows', {
    method: 'POST',
    json: {
      name: 'Read Changes',
      type: 'automation',
      groups: [],
      tasks: { workflow_start: { name: 'workflow_start', groups: [] }, workflow_end: { name: 'workflow_end', groups: [] }, a1: task },
      transitions: { workflow_start: { a1: { type: 'standard', state: 'success' } }, a1: { workflow_end: { type: 'standard', state: 'success' } }, workflow_end: {} },
    },
  });
  expect(created.status).toBeLessThan(300);
}
