// Starts a real console host on 127.0.0.1:0 over a fresh data directory.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startHost, type Host } from '../../core/host/host';
import type { ImportRun } from '../../core/contract/projects';

export interface TestHost extends Host {
  dataDir: string;
  /** fetch against the host with the token. */
  api(pathname: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  dispose(): Promise<void>;
}

// CONSOLE_UI_DIR lets parallel work build and test its own copy of the UI.
export const UI_DIR = process.env.CONSOLE_UI_DIR ?? path.resolve(import.meta.dirname ?? __dirname, '../../dist/renderer');

export async function startTestHost(options: { dataDir?: string; uiDir?: string } = {}): Promise<TestHost> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'console-test-')));
  const host = await startHost({ dataDir, port: 0, token: 'test-token', uiDir: options.uiDir });
  return Object.assign(host, {
    dataDir,
    api(pathname: string, init: RequestInit & { json?: unknown } = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${host.token}`);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set('content-type', 'application/json');
        body = JSON.stringify(init.json);
      }
      return fetch(host.url + pathname, { ...init, headers, body });
    },
    async dispose() {
      await host.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  });
}

/** A call of the host's API answered as its status and its JSON body (null when the body is empty). */
export async function callJson(host: TestHost, pathname: string, init: RequestInit & { json?: unknown } = {}) {
  const res = await host.api(pathname, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** A job as GET /operations-manager/jobs/:id answers it once it no longer runs (or as it is after `timeoutMs`). */
export async function jobWhenSettled(host: TestHost, id: string, timeoutMs = 5000): Promise<{ status: string; variables: Record<string, unknown>; [field: string]: unknown }> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const job = (await callJson(host, `/operations-manager/jobs/${id}`)).body.data;
    if (job.status !== 'running' || Date.now() > end) return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A test host with the pre-built at `folder` imported; throws naming the run when its import did not end done. */
export async function hostWithPrebuilt(folder: string): Promise<TestHost> {
  const host = await startTestHost();
  const run = await importedRun(host, { path: folder });
  if (run.state !== 'done') {
    await host.dispose();
    throw new Error(`the import of ${folder} ended ${run.state}: ${JSON.stringify(run)}`);
  }
  return host;
}

/** An import started (`{ path }`: POST /projects/imports/path; `{ files }`: POST /projects/imports) and followed until it ended. */
export async function importedRun(host: TestHost, from: { path: string } | { files: { path: string; content: unknown }[] }): Promise<ImportRun> {
  const start = await callJson(host, 'path' in from ? '/projects/imports/path' : '/projects/imports', { method: 'POST', json: from });
  if (start.status !== 202) throw new Error(`the import did not start: ${start.status} ${JSON.stringify(start.body)}`);
  let run = start.body as ImportRun;
  for (let i = 0; i < 400 && run.state === 'running'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    run = (await callJson(host, `/projects/imports/${run.id}`)).body as ImportRun;
  }
  return run;
}
