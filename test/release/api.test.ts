import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host.dispose());

describe('GET /release', () => {
  it('answers the running release, each row at it, and the policy findings', async () => {
    const response = await host.api('/release');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.running).toBe('2022.1');
    const states = Object.fromEntries(body.rows.map((r: { id: string; lifecycle: { state: string } }) => [r.id, r.lifecycle.state]));
    expect(states).toEqual({ activate: 'removed', 'admin-services-health': 'deprecated', 'npm-run-index': 'removed' });
    const health = body.rows.find((r: { id: string }) => r.id === 'admin-services-health');
    expect(health).toMatchObject({ method: 'GET', path: '/admin/services/health', removal: '2023.1', removalNote: 'stated as the actual removal release' });
    expect(body.findings).toEqual([expect.objectContaining({ rowId: 'npm-run-index', problem: 'no-deprecation-release' })]);
  });
});

describe('GET /release/lifecycle', () => {
  const lifecycle = async (query: string) => {
    const response = await host.api(`/release/lifecycle?${query}`);
    return { status: response.status, body: await response.json() };
  };

  it('answers the removed health API as deprecated at 2022.1 with its removal release and replacements', async () => {
    const { status, body } = await lifecycle('method=get&path=/admin/services/health/');
    expect(status).toBe(200);
    expect(body).toMatchObject({ method: 'GET', path: '/admin/services/health', release: '2022.1', state: 'deprecated', deprecated: '2021.2', removal: '2023.1' });
    expect(body.replacements.map((r: { text: string }) => r.text)).toEqual(['GET /health/adapters', 'GET /health/applications']);
    expect(body.message).toContain('removed in 2023.1 (stated as the actual removal release)');
  });

  it('answers at another release, and for an API the table does not list', async () => {
    expect((await lifecycle('path=/admin/services/health&release=2023.1.2')).body.state).toBe('removed');
    expect((await lifecycle('path=/admin/services/health&release=2021.1.10')).body.state).toBe('active');
    const other = (await lifecycle('path=/health/adapters')).body;
    expect(other).toMatchObject({ state: 'active', replacements: [] });
    expect(other.message).toContain('is not in the release\'s deprecation table');
  });

  it('rejects a malformed release label or a missing path, naming the field', async () => {
    const bad = await lifecycle('path=/x&release=2022');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('query.release: malformed release label "2022"');
    expect(bad.body.issues[0].path).toBe('query.release');
    const missing = await lifecycle('method=GET');
    expect(missing.status).toBe(400);
    expect(missing.body.issues[0].path).toBe('query.path');
  });
});
