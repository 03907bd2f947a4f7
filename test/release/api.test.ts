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
