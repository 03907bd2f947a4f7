import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { copySite, FIXTURE_SITE } from './site';

let host: TestHost;
let site: Awaited<ReturnType<typeof copySite>>;
beforeAll(async () => {
  [host, site] = await Promise.all([startTestHost(), copySite()]);
});
afterAll(async () => {
  await host.dispose();
  await site.dispose();
});

const check = (body: unknown) => host.api('/upgrade/check', { method: 'POST', json: body });

describe('POST /upgrade/check', () => {
  it('answers the findings and the summary for a folder', async () => {
    const response = await check({ path: site.dir });
    expect(response.status).toBe(200);
    const report = await response.json();
    expect(report.summary).toMatchObject({ root: site.dir, findings: 15, blocking: 10, warnings: 5, blocked: true });
    expect(report.findings.filter((f: { rule: string }) => f.rule === 'codepointat-error')).toEqual([
      expect.objectContaining({ file: 'workflows/first-char.json', line: 5, section: '4.1', blocking: true }),
    ]);
  });

  it('answers 400 naming body.path for a missing folder, a file, a relative path or no path', async () => {
    const cases: [unknown, string][] = [
      [{ path: '/no/such/folder' }, 'body.path: "/no/such/folder" does not exist'],
      [{ path: `${FIXTURE_SITE}/config/properties.json` }, 'is not a folder'],
      [{ path: 'fixtures/site' }, 'must be an absolute path'],
      [{}, 'body.path'],
    ];
    for (const [body, message] of cases) {
      const response = await check(body);
      expect(response.status).toBe(400);
      const error = await response.json();
      expect(error.message).toContain(message);
      expect(error.issues[0].path).toBe('body.path');
    }
  });
});

describe('POST /upgrade/checks and GET /upgrade/checks/:id', () => {
  it('runs the check in the background, with progress, and keeps the report', async () => {
    const started = await host.api('/upgrade/checks', { method: 'POST', json: { path: site.dir } });
    expect(started.status).toBe(202);
    const run = await started.json();
    expect(run).toMatchObject({ path: site.dir, state: 'running' });
    let current = run;
    const seen: string[] = [];
    while (current.state === 'running') {
      seen.push(current.phase);
      await new Promise((resolve) => setTimeout(resolve, 20));
      current = await (await host.api(`/upgrade/checks/${run.id}`)).json();
    }
    expect(current).toMatchObject({ state: 'done', phase: 'finished', done: current.total });
    expect(current.total).toBe(current.report.summary.filesScanned);
    expect(current.report.summary).toMatchObject({ findings: 15, blocking: 10 });
    expect(seen.every((phase) => phase === 'listing' || phase === 'reading')).toBe(true);
  });

  it('refuses a path that is not a folder before starting, and answers 404 for an unknown run', async () => {
    const refused = await host.api('/upgrade/checks', { method: 'POST', json: { path: '/no/such/folder' } });
    expect(refused.status).toBe(400);
    expect((await refused.json()).issues[0].path).toBe('body.path');
    const unknown = await host.api('/upgrade/checks/nope');
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).message).toContain('no upgrade check nope');
  });
});
