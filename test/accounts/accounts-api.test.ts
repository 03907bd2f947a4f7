// The service's identity routes as its clients call them: GET /whoami (the vendor's docs validate a login
// with it, its admin guide reads id, username, provenance, groups and roles), GET /version (one string),
// and GET /authorization/accounts with the service's list filters, which the admin guide pages and filters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson, startTestHost, type TestHost } from '../support/host';

describe('who is calling, the version, and the accounts list', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  }, 60_000);
  afterAll(() => host?.dispose());
  const get = (path: string) => callJson(host, path);

  it('answers /whoami as admin over HTTP and as the desktop operator in the console window', async () => {
    const me = await get('/whoami?roles=names');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ id: 'admin', provenance: 'Local AAA', username: 'admin', firstname: 'admin', groups: [], roles: [] });
    // The id is an account the accounts route answers.
    expect((await get(`/authorization/accounts/${me.body.id}`)).body).toMatchObject({ _id: 'admin', username: 'admin' });
    const bad = await get('/whoami?roles=everything');
    expect([bad.status, bad.body.message]).toEqual([400, expect.stringContaining('query.roles')]);
    const ipc = { transport: 'ipc' as const, caller: 'console', setHeader: () => undefined, setStatus: () => undefined };
    const inWindow = await host.handlers['accounts.whoami']({ query: {} } as never, ipc);
    expect(inWindow.username).not.toBe('admin');
    const accounts = (await get('/authorization/accounts?limit=0')).body.results.map((a: { _id: string }) => a._id);
    expect(accounts).toContain(inWindow.id);
  });

  it('answers the groups as the service lists them: none, since no account belongs to one', async () => {
    expect((await get('/authorization/groups?limit=100')).body).toEqual({ results: [], total: 0 });
    const one = await get('/authorization/groups/5f0000000000000000000001');
    expect([one.status, one.body.message]).toEqual([404, expect.stringContaining('the console keeps no groups')]);
    // Consistent with the accounts: none is a member of any group.
    for (const account of (await get('/authorization/accounts?limit=0')).body.results) expect(account.memberOf).toEqual([]);
  });

  it('answers /version with the version /health/server names', async () => {
    // As the login answers its token: the text itself.
    const version = await host.api('/version');
    expect([version.status, version.headers.get('content-type')]).toEqual([200, expect.stringMatching(/^text\/plain/)]);
    const text = await version.text();
    expect(text).toBe((await get('/health/server')).body.version);
    expect(text).toMatch(/^2022\.1\.\d+$/);
  });

  it('filters, sorts and pages the accounts as the service lists them, on username unless a field is named', async () => {
    const names = async (query: string) => (await get(`/authorization/accounts?${query}`)).body.results.map((a: { username: string }) => a.username);
    const all = await names('limit=0');
    expect(all.length).toBeGreaterThan(1);
    expect(all).toEqual([...all].sort());
    expect(await names('limit=0&order=-1')).toEqual([...all].sort().reverse());
    expect(await names('equals=admin')).toEqual(['admin']);
    expect(await names('equals[username]=admin')).toEqual(['admin']);
    expect(await names('contains=ADM&containsField=username')).toEqual(['admin']);
    expect(await names('startsWith=adm')).toEqual(['admin']);
    expect(await names('equals=Local%20AAA&equalsField=provenance')).toEqual(['admin']);
    expect(await names('equals=nobody')).toEqual([]);
    const page = await get('/authorization/accounts?limit=1&skip=1');
    expect([page.body.results.length, page.body.total]).toEqual([1, all.length]);
    expect((await get('/authorization/accounts?order=2')).status).toBe(400);
  });
});
