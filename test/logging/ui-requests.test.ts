// The UI's own files are not the log's business: after a browser loads the page, its assets and
// the icon it asks for by itself, the log at the default level (info) holds none of those requests,
// while a script's read of a route beside them still is there.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';

type Entry = { level: string; msg: string; fields: Record<string, unknown> };

describe("the UI's files in the log", () => {
  let host: TestHost;
  let uiDir: string;

  beforeAll(async () => {
    uiDir = await mkdtemp(path.join(os.tmpdir(), 'console-ui-'));
    await mkdir(path.join(uiDir, 'assets'));
    await writeFile(path.join(uiDir, 'index.html'), '<!doctype html><title>console</title><script src="./assets/app.js"></script>');
    await writeFile(path.join(uiDir, 'assets', 'app.js'), 'console.log("ui")');
    await writeFile(path.join(uiDir, 'favicon.ico'), Buffer.from([0, 0, 1, 0]));
    host = await startTestHost({ uiDir });
  });
  afterAll(async () => {
    await host?.dispose();
    await rm(uiDir, { recursive: true, force: true });
  });

  it('logs no request for the page, its assets or the favicon at info; a script read still is', async () => {
    // A browser sends neither the token nor X-Caller for these.
    for (const file of ['/', '/index.html', '/assets/app.js', '/favicon.ico', '/assets/missing.css']) {
      const response = await fetch(`${host.url}${file}`);
      expect([200, 401, 404], `${file} answered ${response.status}`).toContain(response.status);
    }
    expect((await fetch(`${host.url}/favicon.ico`)).status).toBe(200);
    await host.api('/workflows/script-read-beside-assets');
    const answer = (await (await host.api('/logs?limit=1000&component=http')).json()) as { results: Entry[] };
    const urls = answer.results.filter((e) => e.msg === 'request').map((e) => String(e.fields.url));
    expect(urls).toContain('/workflows/script-read-beside-assets');
    expect(urls.filter((url) => url === '/' || url.startsWith('/assets/') || url === '/favicon.ico' || url === '/index.html')).toEqual([]);
  });
});
