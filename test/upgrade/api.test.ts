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
