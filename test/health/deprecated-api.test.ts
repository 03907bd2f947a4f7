// The removed `GET /admin/services/health`, answered from the release's deprecation table, and
// the count of calls to deprecated APIs per caller.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { answerLifecycle, DeprecatedCallLog, releaseDate } from '../../core/health/lifecycle';
import type { CallContext } from '../../core/dispatch/dispatch';
import { ConsoleError } from '../../core/errors';
import type { LifecycleRow } from '../../core/release';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host.dispose());
afterEach(() => {
  delete process.env.CONSOLE_API_RELEASE;
});

const legacy = (caller: string) => host.api('/admin/services/health', { headers: { 'x-caller': caller } });

describe('GET /admin/services/health at 2022.1 (deprecated in 2021.2, removal 2023.1)', () => {
  it('still answers the health of applications and adapters, with deprecation headers', async () => {
    const sample = await (await host.api('/adapter-packages/sample?package=%40automation%2Fadapter-example&name=example')).json();
    expect((await host.api('/adapters', { method: 'POST', json: { properties: sample.data } })).status).toBe(200);
    const response = await legacy('inventory-app/1.4');
    expect(response.status).toBe(200);
    expect(response.headers.get('deprecation')).toBe('true');
    expect(response.headers.get('sunset')).toBe('Sun, 01 Jan 2023 00:00:00 GMT');
    const link = response.headers.get('link') ?? '';
    expect(link).toContain('</health/adapters>; rel="successor-version"');
    expect(link).toContain('</health/applications>; rel="successor-version"');
    const body = await response.json();
    const types = body.results.map((item: { id: string; type: string }) => `${item.type}:${item.id}`);
    expect(types).toEqual(expect.arrayContaining(['Application:WorkFlowEngine', 'Application:MOP', 'Adapter:example']));
    expect(body.total).toBe(body.results.length);
  });

  it('answers 410 Gone naming the replacements at a release at or past the removal', async () => {
    process.env.CONSOLE_API_RELEASE = '2023.1';
    const response = await legacy('inventory-app/1.4');
    expect(response.status).toBe(410);
    const body = await response.json();
    expect(body).toMatchObject({
      statusCode: 410,
      error: 'Gone',
      removal: '2023.1',
      deprecated: '2021.2',
      replacements: [
        { text: 'GET /health/adapters', method: 'GET', path: '/health/adapters' },
        { text: 'GET /health/applications', method: 'GET', path: '/health/applications' },
      ],
    });
    expect(body.message).toBe(
      'GET /admin/services/health was removed in 2023.1 (deprecated since 2021.2); use GET /health/adapters or GET /health/applications',
    );
  });

  it('counts the calls per caller so the console can show who still uses it', async () => {
    await legacy('billing-app/2.0');
    await legacy('billing-app/2.0');
    const response = await host.api('/health/deprecated-calls');
    const { results } = await response.json();
    const billing = results.find((row: { caller: string }) => row.caller.startsWith('billing-app/2.0'));
    expect(billing).toMatchObject({ method: 'GET', path: '/admin/services/health', count: 2, state: 'deprecated', removal: '2023.1' });
    const inventory = results.find((row: { caller: string }) => row.caller.startsWith('inventory-app/1.4'));
    expect(inventory).toMatchObject({ count: 2, state: 'removed' });
  });

  it('does not count calls to the replacements', async () => {
    await host.api('/health/adapters', { headers: { 'x-caller': 'good-app/1.0' } });
    const { results } = await (await host.api('/health/deprecated-calls')).json();
    expect(results.some((row: { caller: string }) => row.caller.startsWith('good-app'))).toBe(false);
  });

  it('refuses a malformed CONSOLE_API_RELEASE by name instead of guessing', async () => {
    process.env.CONSOLE_API_RELEASE = '2023';
    const response = await legacy('x');
    expect(response.status).toBe(500);
    expect((await response.json()).message).toContain('CONSOLE_API_RELEASE: malformed release label "2023"');
  });
});

describe('the lifecycle answer serves any API row of the table', () => {
  const row: LifecycleRow = {
    id: 'old-things',
    item: 'POST /things',
    kind: 'api',
    description: 'made-up row',
    deprecated: '2021.1',
    removal: '2022.1',
    method: 'POST',
    path: '/things',
    replacements: [{ text: 'POST /items', method: 'POST', path: '/items' }],
    sections: [],
  };
  const context = (headers: Record<string, string>): CallContext => ({
    transport: 'http',
    caller: 'script',
    setHeader: (name, value) => void (headers[name] = value),
    setStatus: () => undefined,
  });

  it('answers a row removed at the running release with 410 and counts it', () => {
    const log = new DeprecatedCallLog();
    let error: unknown;
    try {
      answerLifecycle(row, context({}), log);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ConsoleError);
    expect((error as ConsoleError).code).toBe('gone');
    expect((error as ConsoleError).statusCode).toBe(410);
    expect((error as ConsoleError).message).toBe('POST /things was removed in 2022.1 (deprecated since 2021.1); use POST /items');
    expect(log.list()).toMatchObject([{ caller: 'script', count: 1, state: 'removed', path: '/things' }]);
  });

  it('leaves a row that is still active alone', () => {
    const log = new DeprecatedCallLog();
    const headers: Record<string, string> = {};
    answerLifecycle({ ...row, deprecated: '2023.1', removal: '2024.1' }, context(headers), log);
    expect(headers).toEqual({});
    expect(log.list()).toEqual([]);
  });

  it('dates the sunset from the removal release label', () => {
    expect(releaseDate('2023.1')).toBe('Sun, 01 Jan 2023 00:00:00 GMT');
    expect(releaseDate('2023.2')).toBe('Sat, 01 Jul 2023 00:00:00 GMT');
  });
});
